# syntax=docker/dockerfile:1
#
# Organiser in a container: the `organiser` binary serving the JSON API on
# port 7420, its store in the /data volume.
#
#   docker build -t organiser .
#   docker run -d --name organiser -p 127.0.0.1:7420:7420 -v organiser-data:/data organiser
#   docker exec organiser organiser token create "my phone"
#
# The server speaks plain HTTP: put a TLS reverse proxy in front of it
# (README, "Deploying"). Podman keeps the health check with
# `podman build --format docker`.

ARG RUST_VERSION=1.95

FROM docker.io/library/rust:${RUST_VERSION}-slim-bookworm AS build
WORKDIR /src
COPY . .
# The caches keep the registry and the compiled dependencies between builds
# (BuildKit or Buildah); the binary is copied out of the cached target.
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/src/target \
    cargo build --release --locked --bin organiser \
    && cp target/release/organiser /usr/local/bin/organiser

FROM docker.io/library/debian:bookworm-slim
# ca-certificates for the server's HTTPS requests (update checks) and the
# commands' requests; curl for the health check.
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates curl \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 organiser \
    && useradd --system --uid 10001 --gid organiser --home-dir /data --no-create-home organiser \
    && mkdir /data \
    && chown organiser:organiser /data \
    && chmod 0700 /data
COPY --from=build /usr/local/bin/organiser /usr/local/bin/organiser

ENV ORGANISER_DATA_DIR=/data
VOLUME ["/data"]
USER organiser:organiser
EXPOSE 7420
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
    CMD ["curl", "--fail", "--silent", "--show-error", "--output", "/dev/null", "http://127.0.0.1:7420/healthz"]
ENTRYPOINT ["organiser"]
CMD ["serve", "--listen", "0.0.0.0:7420"]
