"""The club's own date formats, where Django's defaults for a language do not suit a club."""
