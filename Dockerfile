FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY state ./state
COPY servers ./servers
COPY querygen ./querygen
COPY rewards ./rewards
COPY toolground ./toolground
RUN pip install --no-cache-dir '.[export]'
ENV TOOLGROUND_CACHE=/data FASTMCP_SHOW_SERVER_BANNER=false FASTMCP_CHECK_FOR_UPDATES=off
# Build the default snapshots into the image so containers start serving at once.
RUN for d in banking shopping issue_tracker; do toolground snapshot build --domain "$d" --out /tmp/s.sqlite; done \
    && rm /tmp/s.sqlite
EXPOSE 8000 8100
CMD ["toolground", "serve", "--domains", "all", "--host", "0.0.0.0", "--port", "8000"]
