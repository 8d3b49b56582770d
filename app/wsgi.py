"""The WSGI entry point for production servers: ``gunicorn app.wsgi:app``.

Configuration comes from the environment only (README: Configuration); logs are JSON lines on
stderr (worker/logs.py), like the workers'.
"""

from app import create_app
from worker.logs import configure_logging

configure_logging()
app = create_app()
