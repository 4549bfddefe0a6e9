FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

RUN useradd --create-home --uid 10001 durak

WORKDIR /app
COPY . /app
RUN pip install . \
    && mkdir -p /app/data \
    && chown -R durak:durak /app/data

USER durak

# SQLite database and migrations live here; mount a volume to keep state.
VOLUME /app/data

CMD ["python", "-m", "bot"]
