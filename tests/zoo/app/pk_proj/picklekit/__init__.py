"""picklekit: items, their loaders and a small trainer whose objects cross process and file boundaries."""
