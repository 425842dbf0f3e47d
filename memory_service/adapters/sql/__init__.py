"""SQL repositories: each holds one tenant id and filters every statement by it."""
