"""The WSGI entry point for production servers: ``gunicorn app.entry.wsgi:app``.

Configuration comes from the environment only (README: Configuration); logs are JSON lines on
stderr (app/data/logs.py), like the workers'.
"""

from app.data.config import Settings
from app.data.logs import configure_logging
from app.entry.root import submission_queue
from app.web import create_app

configure_logging()
settings = Settings.from_env()
app = create_app(settings, queue=submission_queue(settings))
