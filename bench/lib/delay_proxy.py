#!/usr/bin/env python3
"""A TCP relay that adds network delay, for benchmarks on loopback.

  delay_proxy.py LISTEN_PORT UPSTREAM_PORT RTT_MS

Every byte waits RTT/2 in each direction and a new connection waits one RTT before it is
relayed (the handshake), so clients on 127.0.0.1:LISTEN_PORT see the server on
127.0.0.1:UPSTREAM_PORT as a host RTT_MS away — what `tc qdisc ... netem delay` would do,
for kernels without netem. Order within a connection is kept; throughput is not limited.
Prints "ready" on stdout once it listens. Runs until killed.
"""
import asyncio
import sys


async def relay(reader, writer, delay):
    """Copy reader to writer, each chunk delivered `delay` seconds after it arrived."""
    loop = asyncio.get_running_loop()
    chunks = asyncio.Queue()

    async def receive():
        while True:
            data = await reader.read(65536)
            chunks.put_nowait((loop.time() + delay, data))
            if not data:
                return

    async def deliver():
        while True:
            due, data = await chunks.get()
            wait = due - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            if not data:
                if writer.can_write_eof():
                    writer.write_eof()
                return
            writer.write(data)
            await writer.drain()

    try:
        await asyncio.gather(receive(), deliver())
    except (ConnectionError, OSError):
        writer.close()  # the other direction's reader ends too


async def main(listen_port, upstream_port, rtt_ms):
    one_way = rtt_ms / 2000.0

    async def serve(client_reader, client_writer):
        try:
            await asyncio.sleep(2 * one_way)
            server_reader, server_writer = await asyncio.open_connection("127.0.0.1", upstream_port)
        except OSError:
            client_writer.close()
            return
        await asyncio.gather(relay(client_reader, server_writer, one_way),
                             relay(server_reader, client_writer, one_way))
        for w in (client_writer, server_writer):
            w.close()

    server = await asyncio.start_server(serve, "127.0.0.1", listen_port, backlog=1024)
    print("ready", flush=True)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    asyncio.run(main(int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])))
