"""The web server's routes, each module an :class:`fastapi.APIRouter` that
:func:`~unokit.server.app.create_app` includes: the pages and configuration
(:mod:`.pages`), the rooms' HTTP API (:mod:`.rooms`), the WebSocket (:mod:`.socket`)."""
