#!/usr/bin/env bash
# The Debian packages nlgboard needs, installed where missing. One list for the image and CI
# (docker/Dockerfile runs "runtime", .ci/run runs "test"), so the two cannot drift.
#   runtime: Java (METEOR 1.5 and its bundled WordNet synonyms, the PTB tokeniser),
#            link-grammar and its English dictionary (D-level, E2E Fig. 4)
#   build:   a C compiler, for the install only (METEOR's compiled search)
#   test:    runtime + a C compiler + the servers and tools the tests start themselves, and what the
#            official scoring tools need when the tests run them as oracles
set -euo pipefail
mode="${1:-runtime}"

packages=()
command -v java >/dev/null || packages+=(openjdk-17-jre-headless)
[[ -d /usr/lib/python3/dist-packages/linkgrammar ]] || packages+=(python3-link-grammar)
[[ -d /usr/share/link-grammar/en ]] || packages+=(link-grammar-dictionaries-en)
case "$mode" in
  runtime) ;;
  build) command -v cc >/dev/null || packages+=(gcc libc6-dev) ;;
  test)
    command -v redis-server >/dev/null || packages+=(redis-server)
    compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || packages+=(postgresql)
    [[ -x /usr/bin/chromium ]] || packages+=(chromium)  # browser tests (Playwright drives it)
    command -v npm >/dev/null || packages+=(npm)  # axe-core, injected by the browser tests
    command -v docker-compose >/dev/null || packages+=(docker-compose)  # compose file check
    command -v make >/dev/null || packages+=(make)
    # METEOR's compiled search (scorer/meteor/_search.c; without a compiler it runs in Python)
    command -v cc >/dev/null || packages+=(gcc libc6-dev)
    # the official E2E BLEU/NIST script (mteval, Perl) run as a test oracle
    perl -MXML::Twig -e 1 2>/dev/null || packages+=(libxml-twig-perl)
    ;;
  *) echo "usage: $0 [runtime|build|test]" >&2; exit 2 ;;
esac

if ((${#packages[@]})); then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
fi
