"""The entry layer: the composition root, the CLI, the WSGI module and the demo seed."""
