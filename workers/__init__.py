"""Celery app and thin tasks."""
