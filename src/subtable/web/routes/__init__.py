"""The HTTP and WebSocket routes, one router per concern: ``tables`` (the JSON API),
``pages``, ``learn``, ``socket``; ``deps`` holds what they share and ``errors`` how a
refusal is answered."""
