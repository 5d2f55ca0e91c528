"""A name -> model class registry, filled by the @register decorators of the modules that define models."""

MODELS = {}


def register(name):
    def add(cls):
        MODELS[name] = cls
        return cls

    return add


def build(name, **kwargs):
    return MODELS[name](**kwargs)
