FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md alembic.ini ./
COPY memory_service ./memory_service
COPY workers ./workers
COPY migrations ./migrations
# The client distribution the server depends on (pinned ==0.1.0+repo: never fetched from PyPI).
COPY clients/python ./clients/python
# EXTRAS="[monitoring]" adds Flower (the compose flower service builds with it).
ARG EXTRAS=""
RUN pip install --no-cache-dir ./clients/python ".${EXTRAS}"
ENV MEMORY_SERVICE_ENV=production
EXPOSE 8080
CMD ["memory-service", "serve", "--host", "0.0.0.0", "--port", "8080", "--workers", "2"]
