"""The configs, read as a module by `initialize_config_module(config_module="v_app.conf")`."""
