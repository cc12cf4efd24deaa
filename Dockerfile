FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY state ./state
COPY contract ./contract
COPY servers ./servers
COPY querygen ./querygen
COPY rewards ./rewards
COPY toolground ./toolground
RUN pip install --no-cache-dir '.[export]'
ENV TOOLGROUND_CACHE=/data FASTMCP_SHOW_SERVER_BANNER=false FASTMCP_CHECK_FOR_UPDATES=off
# Build every domain's snapshot into the image (~190 MB, ~45 s of CPU) so containers start serving at
# once: `--domains all` would otherwise build them in every container, the four shards of the scaled
# compose profile and the reward service's replays included.
RUN python -c "from servers.registry import parse_domains; from servers.runtime import Environment; \
Environment(parse_domains('all')).snapshots()"
EXPOSE 8000 8100
CMD ["toolground", "serve", "--domains", "all", "--host", "0.0.0.0", "--port", "8000"]
