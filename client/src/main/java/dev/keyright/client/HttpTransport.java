package dev.keyright.client;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

/** The real {@link Transport}: one shared {@link HttpClient}, a timeout per request. */
final class HttpTransport implements Transport {

    private final HttpClient http;

    HttpTransport(HttpClient http) {
        this.http = http;
    }

    @Override
    public Response send(Request request) throws IOException, InterruptedException {
        HttpRequest.BodyPublisher body = request.body() == null
                ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(request.body(), StandardCharsets.UTF_8);
        HttpRequest.Builder builder = HttpRequest.newBuilder(request.uri())
                .timeout(request.timeout())
                .method(request.method(), body);
        request.headers().forEach(builder::header);
        HttpResponse<String> response = http.send(builder.build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        return new Response(response.statusCode(), response.headers().map(), response.body());
    }
}
