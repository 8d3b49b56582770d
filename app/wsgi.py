"""The WSGI entry point for production servers: ``gunicorn app.wsgi:app``.

Configuration comes from the environment only (README: Configuration); logs are JSON lines on
stderr (app/logs.py), like the workers'.
"""

from app.logs import configure_logging
from app.root import make_app

configure_logging()
app = make_app()
