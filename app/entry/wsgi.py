"""The WSGI entry point for production servers: ``gunicorn app.entry.wsgi:app``.

Configuration comes from the environment only (README: Configuration); logs are JSON lines on
stderr (app/data/logs.py), like the workers'.
"""

from app.data.logs import configure_logging
from app.entry.root import make_app

configure_logging()
app = make_app()
