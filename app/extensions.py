"""Extensions created unbound; `create_app` binds them."""

from flask_babel import Babel
from flask_compress import Compress
from flask_limiter import Limiter
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect

from app.core import throttle
from app.core.db import Base
from app.core.jobs import JobQueues
from app.core.redis_store import RedisStore

db = SQLAlchemy(model_class=Base)
migrate = Migrate()
csrf = CSRFProtect()
babel = Babel()
redis_store = RedisStore()
queues = JobQueues(redis_store)
# Limits count per address, or per shop API key for a call made with one (`throttle.caller`).
limiter = Limiter(key_func=throttle.caller)
# Pages, JSON, CSS and JS compressed for browsers that accept it (the vehicle page is ~120 KB of HTML, ~10 KB gzipped).
compress = Compress()
