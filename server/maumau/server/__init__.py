"""The maumau server: the rules engine, bots, tables, lobby and the Mau arbiter.

``maumau.server.rules`` is the pure, deterministic rules engine. Everything that
touches time, sockets or randomness outside a match's own seeded RNG lives beside it.
"""
