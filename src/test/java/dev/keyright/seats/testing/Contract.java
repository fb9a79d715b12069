package dev.keyright.seats.testing;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.openapi.contract.OpenAPIContract;
import io.vertx.openapi.contract.Operation;
import io.vertx.openapi.contract.Parameter;
import io.vertx.openapi.contract.Location;
import io.vertx.openapi.mediatype.ContentAnalyserFactory;
import io.vertx.openapi.mediatype.MediaTypePredicate;
import io.vertx.openapi.mediatype.MediaTypeRegistration;
import io.vertx.openapi.mediatype.MediaTypeRegistry;
import io.vertx.openapi.mediatype.impl.DefaultMediaTypeRegistration;
import io.vertx.openapi.validation.RequestParameter;
import io.vertx.openapi.validation.RequestValidator;
import io.vertx.openapi.validation.ResponseParameter;
import io.vertx.openapi.validation.ResponseValidator;
import io.vertx.openapi.validation.ValidatableResponse;
import io.vertx.openapi.validation.impl.RequestParameterImpl;
import io.vertx.openapi.validation.impl.ValidatableRequestImpl;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.net.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * The OpenAPI document the server ships ({@code META-INF/keyright-openapi.yaml}), held against every exchange the
 * integration tests make through {@link Api}, by Vert.x's OpenAPI 3.1 validator. An exchange breaks the
 * contract when:
 * <ul>
 * <li>the answer is not one the document describes for that operation (status, media type, body schema,
 * required headers), or</li>
 * <li>the document refuses the request (a parameter or body outside its schema) and yet the server accepted it
 * (anything but a 4xx), or</li>
 * <li>the route is not in the document and the answer is not a 4xx problem.</li>
 * </ul>
 * So a route, status, member or header the server answers and the document does not describe fails the test
 * that met it. The test-only controls under {@code /test-support} are not part of the API and are not checked.
 */
public final class Contract {

    private static final String DOCUMENT = "src/main/resources/META-INF/keyright-openapi.yaml";
    private static final String PROBLEM = "application/problem+json";
    /** docs/API.md: {@code /} or {@code /segment}s of letters, digits, '.', '_', '~', '-' (and the page's {@code /admin/}). */
    private static final java.util.regex.Pattern CANONICAL = java.util.regex.Pattern.compile("/|(/[A-Za-z0-9._~-]+)+|/admin/");
    private static volatile Contract loaded;

    private final Vertx vertx;
    private final OpenAPIContract contract;
    private final RequestValidator requests;
    private final ResponseValidator responses;

    private Contract(Vertx vertx, OpenAPIContract contract) {
        this.vertx = vertx;
        this.contract = contract;
        this.requests = RequestValidator.create(vertx, contract);
        this.responses = ResponseValidator.create(vertx, contract);
    }

    /** The document, loaded once per test JVM. */
    public static Contract document() {
        Contract contract = loaded;
        if (contract == null) {
            synchronized (Contract.class) {
                contract = loaded;
                if (contract == null) {
                    contract = load();
                    loaded = contract;
                }
            }
        }
        return contract;
    }

    private static Contract load() {
        Vertx vertx = Vertx.vertx(new VertxOptions().setWorkerPoolSize(4).setEventLoopPoolSize(1));
        MediaTypeRegistry registry = MediaTypeRegistry.createDefault()
                .register(new DefaultMediaTypeRegistration(MediaTypePredicate.ofExactTypes(PROBLEM, "application/merge-patch+json"),
                        ContentAnalyserFactory.json()))
                // the admin page's files and this document itself: checked for their media type, not parsed
                .register(new DefaultMediaTypeRegistration(
                        MediaTypePredicate.ofExactTypes("text/html", "text/css", "text/javascript", "application/yaml"),
                        ContentAnalyserFactory.noop()));
        OpenAPIContract contract = await(OpenAPIContract.builder(vertx).setContract(yaml()).mediaTypeRegistry(registry).build());
        return new Contract(vertx, contract);
    }

    private static JsonObject yaml() {
        try (InputStream in = java.nio.file.Files.newInputStream(java.nio.file.Path.of(DOCUMENT))) {
            Map<String, Object> map = new Yaml(new LoaderOptions()).load(in);
            return new JsonObject(map);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The document's text. */
    public String text() {
        try {
            return java.nio.file.Files.readString(java.nio.file.Path.of(DOCUMENT));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The raw document, as parsed. */
    public JsonObject raw() {
        return contract.getRawContract();
    }

    /** Every operation the document describes. */
    public List<Operation> operations() {
        return contract.operations();
    }

    /**
     * Checks one exchange; throws {@link AssertionError} saying what broke the contract.
     *
     * @param path the request's path and query, from the server's root (no context path)
     */
    public void check(String method, String path, Map<String, String> requestHeaders, String requestBody,
                      int status, HttpHeaders responseHeaders, String responseBody) {
        String rawPath = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
        String query = path.contains("?") ? path.substring(path.indexOf('?') + 1) : "";
        if (rawPath.startsWith("/test-support/") || method.equals("HEAD")) {
            return;
        }
        String exchange = method + " " + path + " -> " + status;
        String contentType = responseHeaders.firstValue("Content-Type").map(Contract::mediaType).orElse(null);
        boolean bare = responseBody == null || responseBody.isEmpty();
        if (status == 400 && bare && contentType == null) {
            // The HTTP layer's own refusal, before any application code (docs/API.md: a GET with a body, an encoded
            // NUL, invalid UTF-8, a control character in a header): not an answer of the API.
            return;
        }
        if (!CANONICAL.matcher(rawPath).matches() || rawPath.contains("/./") || rawPath.contains("/../")
                || rawPath.endsWith("/.") || rawPath.endsWith("/..")) {
            // Not a path the document can name: the application answers 400 invalid-path (and the container
            // answers a target it resolves into WEB-INF itself, 404 not-found): a 4xx problem either way.
            if (status < 400 || status > 499 || !PROBLEM.equals(contentType)) {
                throw new AssertionError("A path that is not canonical must be answered a 4xx problem, but it was: "
                        + exchange + " " + contentType + " " + abbreviated(responseBody));
            }
            return;
        }
        Operation operation = contract.findOperation(rawPath, HttpMethod.valueOf(method));
        if (operation == null) {
            if (status < 400 || status > 499 || !PROBLEM.equals(contentType)) {
                throw new AssertionError("No operation in openapi.yaml for " + method + " " + rawPath
                        + ", so the answer must be a 4xx problem, but it was: " + exchange + " " + contentType);
            }
            return;
        }
        String refused = requestRefusal(operation, rawPath, query, requestHeaders, requestBody);
        if (refused != null && (status < 400 || status > 499)) {
            throw new AssertionError("openapi.yaml refuses this request (" + refused + ") but the server answered it: "
                    + exchange + " " + abbreviated(responseBody));
        }
        Map<String, String> headers = new HashMap<>();
        for (Parameter header : responseHeadersOf(operation, status)) {
            responseHeaders.firstValue(header.getName()).ifPresent(value -> headers.put(header.getName(), value));
        }
        Buffer body = responseBody == null || responseBody.isEmpty() ? null : Buffer.buffer(responseBody, "UTF-8");
        ValidatableResponse response = ValidatableResponse.create(status, headers, body, contentType);
        try {
            await(responses.validate(response, operation.getOperationId()));
        } catch (RuntimeException e) {
            throw new AssertionError("The answer breaks openapi.yaml (" + operation.getOperationId() + "): "
                    + describe(e) + "; " + exchange + " " + contentType + " " + abbreviated(responseBody), e);
        }
    }

    /** Why the document refuses this request, or null when it admits it. */
    private String requestRefusal(Operation operation, String rawPath, String query, Map<String, String> requestHeaders,
                                  String requestBody) {
        Map<String, RequestParameter> headers = new HashMap<>();
        Map<String, RequestParameter> pathParameters = new HashMap<>();
        Map<String, RequestParameter> queryParameters = new HashMap<>();
        Map<String, String> pathValues = pathValues(operation.getOpenAPIPath(), rawPath);
        Map<String, String> queryValues = queryValues(query);
        for (Parameter parameter : operation.getParameters()) {
            String name = parameter.getName();
            if (parameter.getIn() == Location.HEADER) {
                requestHeaders.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name)).findFirst()
                        .ifPresent(e -> headers.put(name, new RequestParameterImpl(e.getValue())));
            } else if (parameter.getIn() == Location.PATH && pathValues.containsKey(name)) {
                pathParameters.put(name, new RequestParameterImpl(pathValues.get(name)));
            } else if (parameter.getIn() == Location.QUERY && queryValues.containsKey(name)) {
                queryParameters.put(name, new RequestParameterImpl(queryValues.get(name)));
            }
        }
        String contentType = requestHeaders.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase("Content-Type"))
                .map(Map.Entry::getValue).findFirst().orElse(null);
        RequestParameter body = new RequestParameterImpl(requestBody == null || requestBody.isEmpty() ? null
                : Buffer.buffer(requestBody, "UTF-8"));
        try {
            await(requests.validate(new ValidatableRequestImpl(Map.of(), headers, pathParameters, queryParameters, body,
                    contentType == null ? null : mediaType(contentType)), operation.getOperationId()));
            return null;
        } catch (RuntimeException e) {
            return describe(e);
        }
    }

    private static List<Parameter> responseHeadersOf(Operation operation, int status) {
        io.vertx.openapi.contract.Response response = operation.getResponse(status);
        return response == null ? List.of() : response.getHeaders();
    }

    /** The values of a path template's parameters in a concrete path ({@code /v1/seats/{leaseId}/renew}). */
    static Map<String, String> pathValues(String template, String path) {
        String[] names = template.substring(1).split("/", -1);
        String[] values = path.substring(1).split("/", -1);
        Map<String, String> found = new HashMap<>();
        for (int i = 0; i < names.length && i < values.length; i++) {
            if (names[i].startsWith("{") && names[i].endsWith("}")) {
                found.put(names[i].substring(1, names[i].length() - 1), URLDecoder.decode(values[i], StandardCharsets.UTF_8));
            }
        }
        return found;
    }

    private static Map<String, String> queryValues(String query) {
        Map<String, String> values = new HashMap<>();
        for (String pair : query.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int equals = pair.indexOf('=');
            String name = URLDecoder.decode(equals < 0 ? pair : pair.substring(0, equals), StandardCharsets.UTF_8);
            values.putIfAbsent(name, equals < 0 ? "" : URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8));
        }
        return values;
    }

    /** {@code application/json; charset=UTF-8} is {@code application/json}. */
    public static String mediaType(String contentType) {
        int semicolon = contentType.indexOf(';');
        return (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).trim().toLowerCase(Locale.ROOT);
    }

    private static String describe(Throwable e) {
        Throwable cause = e instanceof IllegalStateException && e.getCause() != null ? e.getCause() : e;
        String message = cause.getMessage();
        if (cause instanceof io.vertx.openapi.validation.SchemaValidationException schema && schema.getOutputUnit() != null) {
            message = message + " " + schema.getOutputUnit().toJson().encode();
        }
        return abbreviated(message);
    }

    private static String abbreviated(String text) {
        if (text == null) {
            return "";
        }
        return text.length() > 1500 ? text.substring(0, 1500) + "..." : text;
    }

    private static <T> T await(Future<T> future) {
        try {
            return future.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("the validator took more than 30 s", e);
        }
    }
}
