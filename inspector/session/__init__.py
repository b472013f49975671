"""The open file, its page and that page's analysis over time, for the main window."""
