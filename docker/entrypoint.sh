#!/bin/sh
# Roles of the nlgboard image: web | worker | migrate | healthcheck | any nlgboard command.
set -eu
role="${1:-web}"
case "$role" in
  web)
    exec gunicorn --bind "0.0.0.0:${PORT:-8000}" \
      --workers "${WEB_PROCESSES:-2}" --threads "${WEB_THREADS:-4}" --worker-class gthread \
      --access-logfile - --forwarded-allow-ips "${FORWARDED_ALLOW_IPS:-127.0.0.1}" \
      app.entry.wsgi:app ;;
  worker)
    exec nlgboard worker ;;
  migrate)
    exec nlgboard db upgrade ;;
  healthcheck)
    # web: the readiness endpoint; worker (NLGBOARD_ROLE=worker): database, Redis and storage.
    if [ "${NLGBOARD_ROLE:-web}" = worker ]; then exec nlgboard status > /dev/null; fi
    exec python -c "import sys, urllib.request; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:${PORT:-8000}/readyz', timeout=4).status == 200 else 1)" ;;
  *)
    exec nlgboard "$@" ;;
esac
