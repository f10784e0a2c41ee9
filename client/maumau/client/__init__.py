"""The maumau Textual terminal client.

It talks to a server through ``maumau.protocol`` and never imports ``maumau.server``
except to start an embedded server for local play.
"""
