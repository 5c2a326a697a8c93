# Production image: gunicorn web, RQ worker and scheduler all run from it (see docker-compose.yml).
FROM node:20-slim AS assets
WORKDIR /build
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --loglevel=error

FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
WORKDIR /srv/app
COPY requirements.txt ./
RUN pip install -r requirements.txt
COPY . .
COPY --from=assets /build/node_modules/htmx.org/dist/htmx.min.js app/static/vendor/htmx.min.js
RUN pybabel compile -d translations && useradd --system --home /srv/app parcabul && mkdir -p instance/storage \
    && chown -R parcabul instance
USER parcabul
EXPOSE 8000
CMD ["gunicorn", "wsgi:app", "--bind", "0.0.0.0:8000", "--workers", "3", "--threads", "4", "--access-logfile", "-"]
