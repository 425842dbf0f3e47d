"""HTTP only: turns requests into service calls and known errors into JSON."""
