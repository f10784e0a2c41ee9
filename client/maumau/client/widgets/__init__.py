"""Widgets the screens are made of: the banner, pick lists, the ASCII mixin, the seat
plan, the chat line, the table's hand and pile, the lobby's lists, the tournament's
standings and tables, the host's lists.

A widget draws from the view model (read through :class:`~maumau.client.host.Host`)
and what its screen hands it, and posts what the player did up to its screen as a
Textual message; it never imports a screen or the app.
"""
