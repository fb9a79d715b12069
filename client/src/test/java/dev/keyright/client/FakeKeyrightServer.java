package dev.keyright.client;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** {@link FakeSeatService} over real HTTP, on 127.0.0.1 and a free port. */
final class FakeKeyrightServer implements AutoCloseable {

    final FakeSeatService service = new FakeSeatService();
    private final HttpServer server;
    private final ExecutorService executor = Executors.newFixedThreadPool(4, r -> {
        Thread thread = new Thread(r, "fake-keyright");
        thread.setDaemon(true);
        return thread;
    });

    FakeKeyrightServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::answer);
        server.setExecutor(executor);
        server.start();
    }

    URI uri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** A client of this server's one license, as the SDK's tests start from it; each adds its own time and retries. */
    KeyrightClientBuilder clientBuilder() {
        return KeyrightClient.builder().server(uri()).product(FakeSeatService.PRODUCT)
                .licenseKey(FakeSeatService.LICENSE_KEY).clientInstanceId("inst-test")
                .issuer(FakeSeatService.ISSUER).requestTimeout(java.time.Duration.ofSeconds(5));
    }

    private void answer(HttpExchange exchange) throws IOException {
        try (exchange) {
            Map<String, String> headers = new HashMap<>();
            exchange.getRequestHeaders().forEach((name, values) -> headers.put(name, values.get(0)));
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            Transport.Request request = new Transport.Request(exchange.getRequestMethod(),
                    exchange.getRequestURI(), headers, body.isEmpty() ? null : body, Duration.ofSeconds(5));
            Transport.Response response = service.send(request);
            response.headers().forEach((name, values) -> exchange.getResponseHeaders().put(name, List.copyOf(values)));
            byte[] bytes = response.body().getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(response.status(), response.status() == 204 ? -1 : bytes.length);
            if (response.status() != 204) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(bytes);
                }
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
