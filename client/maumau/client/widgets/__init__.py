"""Widgets the screens share: the banner, pick lists, the ASCII mixin, the seat plan,
and the table's hand and pile.

A widget draws from the view model (read through :class:`~maumau.client.host.Host`)
and what its screen hands it; it never imports a screen or the app.
"""
