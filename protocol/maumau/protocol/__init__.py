"""maumau's wire vocabulary: cards, message types and the sans-IO codec.

This package is shared by the trio server and the asyncio (Textual) client, so it
imports neither trio, asyncio nor textual, and nothing from ``maumau.server`` or
``maumau.client``.
"""
