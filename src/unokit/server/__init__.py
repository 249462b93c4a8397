"""``unokit serve``: rooms of UNO in the browser, over HTTP and a WebSocket.

The protocol is ``docs/protocol.md``. The modules: :mod:`.models` (every message and HTTP body
as a pydantic model: the protocol's schemas), :mod:`.protocol` (the messages as the server
builds and reads them, and the view a seat is sent), :mod:`.rooms` (a room: its seats, its
game, its bots), :mod:`.store` (the database and its migrations), :mod:`.app` (the FastAPI
application), :mod:`.security` (origins, rate limits, tokens, headers) and :mod:`.catalogs`
(the message catalogues and the rules help as JSON). They need the ``web`` extra (FastAPI,
pydantic, uvicorn, SQLAlchemy, Alembic, platformdirs); the rest of unokit does not.
"""
