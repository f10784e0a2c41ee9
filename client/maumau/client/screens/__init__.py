"""The client's screens and dialogs, one module each.

A screen draws the view model (read through :class:`~maumau.client.host.Host`) and
turns keys into Textual messages to the app (:mod:`.messages`): protocol messages to
send, a place to go. Dialogs answer their caller through ``dismiss``. No screen
imports the app; a screen may open a dialog or another screen below it in this list:

- :mod:`.connect`: where to connect, and as whom
- :mod:`.lobby`: tables, players online, lobby chat (the line under the tables in
  :mod:`.lobby_detail`)
- :mod:`.host`: the host's view of the server (its questions, and the lobby's X,
  in :mod:`.host_dialogs`)
- :mod:`.new_table`: every table setting and the seat plan
- :mod:`.password`: a locked table's password
- :mod:`.tournament`, :mod:`.new_tournament`: the tournament followed, and a new one
- :mod:`.table`: the table itself (its keys and moves in :mod:`.table_moves`, their
  rules in :mod:`.table_keys`)
- :mod:`.suit_picker`, :mod:`.result`, :mod:`.confirm`, :mod:`.help`: its dialogs
- :mod:`.leaderboard`, :mod:`.history`, :mod:`.replay`: a server's records
  (:mod:`.records_base` says how the app keeps them up to date)

Text the client did not write itself (names, chat, the server's words, what the
player typed) reaches a widget only as a Rich ``Text`` made by
:func:`~maumau.client.literal.literal`, or appended to one: a plain ``str`` would be
read as markup.
"""
