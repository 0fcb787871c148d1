"""Board images drawn with Pillow from game views; no Discord here.

Each game has a module with one entry point (``bot.render.coup.render_coup_board``) that takes a
view (public or one seat's), display names and a locale and returns PNG bytes. Renderers are pure:
the same arguments give the same bytes. The bot calls them through ``asyncio.to_thread``.
"""
