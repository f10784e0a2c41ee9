"""Browser play: the real Textual client served to every guest's browser or phone.

Theory of operation
-------------------
``maumau-web`` (or ``maumau-server --web PORT``, which starts it beside itself) is a
small aiohttp server built on textual-serve (:mod:`.server`). Each browser tab that
opens the page gets its own process of the real client (:mod:`.guest`), run by a
:class:`~.service.GuestService`: textual-serve's web driver carries the tab's keys,
clicks, taps and size to that process and its screen back to the tab. Nothing else
is served: one page, the package's own assets (script, style, font), and the
websocket. No request leaves the host: the page loads nothing from the internet.

**A guest is whoever opens the page.** No config folder is shared: each guest process
gets a private, empty home that is removed when it ends. Inside the page the client
asks for a name and an optional PIN (:mod:`maumau.client.screens.web_login`); the
name's secret is derived from them with a key only the host holds
(:mod:`.identity`), so the same name and PIN give the same secret from any tab or
device (a reload, a reopened tab or a phone gets the seat back, as any dropped
player would), and someone without the PIN cannot take the name.

**The game server's address is locked.** A guest process connects only to the
address the host gave ``maumau-web``; its screens offer no way to type another, and
the command palette is off. ``docs/web.md`` has the whole security model and what a
guest costs.
"""
