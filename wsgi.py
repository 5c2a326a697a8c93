"""WSGI entry point: `gunicorn wsgi:app`."""

from dotenv import load_dotenv

load_dotenv()

from app import create_app_or_exit  # noqa: E402 - settings must be in the environment before the app reads them

app = create_app_or_exit()
