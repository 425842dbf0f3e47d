FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md alembic.ini ./
COPY memory_service ./memory_service
COPY workers ./workers
COPY migrations ./migrations
# EXTRAS="[monitoring]" adds Flower (the compose flower service builds with it).
ARG EXTRAS=""
RUN pip install --no-cache-dir ".${EXTRAS}"
ENV MEMORY_SERVICE_ENV=production
EXPOSE 8080
CMD ["memory-service", "serve", "--host", "0.0.0.0", "--port", "8080", "--workers", "2"]
