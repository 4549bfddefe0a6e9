# Durak Discord bot. Code and data are kept apart: the code (with its SQL migrations and
# translations inside the installed package) comes from the image, and the volume /data holds
# only the SQLite database, so a newer image always brings its own migrations.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

RUN useradd --create-home --uid 10001 durak \
    && mkdir /data \
    && chown durak:durak /data

# Dependencies first, from pyproject.toml alone: this layer is rebuilt when the dependencies
# change, not on every code change.
COPY pyproject.toml /src/pyproject.toml
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('/src/pyproject.toml', 'rb'))['project']['dependencies']))" \
        > /tmp/requirements.txt \
    && pip install -r /tmp/requirements.txt \
    && rm /tmp/requirements.txt

# Then the code, installed as a package (dependencies are already there) and the sources
# removed, so nothing runs from a directory a volume could shadow.
COPY README.md LICENSE /src/
COPY engine /src/engine
COPY bot /src/bot
COPY cogs /src/cogs
RUN pip install --no-deps /src \
    && rm -rf /src

USER durak
WORKDIR /data

ENV DATABASE_PATH=/data/durak.db \
    HEARTBEAT_FILE=/tmp/durak-heartbeat

# The database only. Mount a named volume (docker run -v durak-data:/data ...) to keep it.
VOLUME /data

# Healthy while the bot is connected to Discord (every shard of this process) and its
# database answers: the bot touches HEARTBEAT_FILE every 30 s only then, and this check fails
# when the file is older than 90 s (see bot/health.py). Logging in takes a while: start period.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-m", "bot", "--health"]

CMD ["python", "-m", "bot"]
