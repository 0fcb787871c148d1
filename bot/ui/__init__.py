"""Discord views: persistent components, message builders, click handlers and the publisher."""
