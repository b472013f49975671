"""The QA and customer tools: panels' controllers, search, compare, regression cases."""
