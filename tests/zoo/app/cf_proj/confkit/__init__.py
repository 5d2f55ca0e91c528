"""confkit: cf_proj's configuration (YAML files read with yaml.safe_load), its schema and a small trainer."""
