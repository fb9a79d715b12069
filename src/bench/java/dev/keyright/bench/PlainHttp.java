package dev.keyright.bench;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * One keep-alive HTTP/1.1 connection to 127.0.0.1, blocking, used by one thread: the load generator's lean
 * client ({@code -Dbench.client=plain}). {@code java.net.http.HttpClient} spends 0.2-0.35 ms of CPU per request on
 * its selector thread, futures and header maps, on the same two cores as the server; this writes the
 * request's bytes and reads the status line, the headers and the whole body (by {@code Content-Length} or
 * chunked), nothing more. A connection the server closed (its {@code Connection: close}) is opened again for the
 * next request; a request met by a closed socket on a reused connection, before any answer (the server dropped an
 * idle keep-alive connection as the request left), is sent once more on a new one, as HTTP clients do for that race.
 * A timeout or any other failure is the call's failure, counted as an error.
 */
final class PlainHttp implements AutoCloseable {

    /** A response: its status and its body, read in full. */
    record Response(int status, byte[] body) {
        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private static final int TIMEOUT_MILLIS = 30_000;

    private final String host;
    private final int port;
    private final String hostHeader;
    private Socket socket;
    private InputStream in;
    private OutputStream out;
    private int usesOfConnection;

    PlainHttp(String host, int port) {
        if (!"127.0.0.1".equals(host)) {
            throw new IllegalArgumentException("the benchmark talks to 127.0.0.1 only, not " + host);
        }
        this.host = host;
        this.port = port;
        this.hostHeader = host + ":" + port;
    }

    /**
     * Sends {@code method path} with the headers given as name/value pairs and the body (null for none), and reads
     * the answer.
     */
    Response send(String method, String path, byte[] body, String... headers) throws IOException {
        byte[] request = request(method, path, body, headers);
        boolean reused = socket != null && usesOfConnection > 0;
        try {
            return exchange(request);
        } catch (IOException first) {
            closeQuietly();
            if (!reused || !(first instanceof EOFException || first instanceof java.net.SocketException)) {
                throw first;
            }
            return exchange(request);
        }
    }

    private byte[] request(String method, String path, byte[] body, String... headers) {
        StringBuilder head = new StringBuilder(256).append(method).append(' ').append(path).append(" HTTP/1.1\r\nHost: ")
                .append(hostHeader).append("\r\n");
        for (int i = 0; i + 1 < headers.length; i += 2) {
            head.append(headers[i]).append(": ").append(headers[i + 1]).append("\r\n");
        }
        int length = body == null ? 0 : body.length;
        if (body != null || "POST".equals(method) || "PATCH".equals(method)) {
            head.append("Content-Length: ").append(length).append("\r\n");
        }
        head.append("\r\n");
        byte[] headBytes = head.toString().getBytes(StandardCharsets.ISO_8859_1);
        byte[] request = new byte[headBytes.length + length];
        System.arraycopy(headBytes, 0, request, 0, headBytes.length);
        if (length > 0) {
            System.arraycopy(body, 0, request, headBytes.length, length);
        }
        return request;
    }

    private Response exchange(byte[] request) throws IOException {
        if (socket == null) {
            connect();
        }
        out.write(request);
        out.flush();
        usesOfConnection++;
        String statusLine = line();
        if (statusLine == null) {
            throw new EOFException("the connection was closed before an answer");
        }
        if (!statusLine.startsWith("HTTP/1.1 ") || statusLine.length() < 12) {
            throw new IOException("not an HTTP/1.1 status line: " + statusLine);
        }
        int status = Integer.parseInt(statusLine.substring(9, 12));
        long contentLength = -1;
        boolean chunked = false;
        boolean close = false;
        for (String header = line(); header != null && !header.isEmpty(); header = line()) {
            int colon = header.indexOf(':');
            if (colon <= 0) {
                continue;
            }
            String name = header.substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = header.substring(colon + 1).trim();
            switch (name) {
                case "content-length" -> contentLength = Long.parseLong(value);
                case "transfer-encoding" -> chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
                case "connection" -> close = value.equalsIgnoreCase("close");
                default -> { }
            }
        }
        byte[] body;
        if (chunked) {
            body = chunkedBody();
        } else if (contentLength >= 0) {
            body = in.readNBytes((int) contentLength);
            if (body.length < contentLength) {
                throw new EOFException("the body ended after " + body.length + " of " + contentLength + " bytes");
            }
        } else if (status == 204 || status == 304 || (status >= 100 && status < 200)) {
            body = new byte[0];
        } else {
            body = in.readAllBytes(); // no length: the body ends with the connection
            close = true;
        }
        if (close) {
            closeQuietly();
        }
        return new Response(status, body);
    }

    private byte[] chunkedBody() throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            String sizeLine = line();
            if (sizeLine == null) {
                throw new EOFException("the chunked body ended early");
            }
            int semicolon = sizeLine.indexOf(';');
            int size = Integer.parseInt((semicolon >= 0 ? sizeLine.substring(0, semicolon) : sizeLine).trim(), 16);
            if (size == 0) {
                for (String trailer = line(); trailer != null && !trailer.isEmpty(); trailer = line()) {
                    // trailers are read and dropped
                }
                return body.toByteArray();
            }
            byte[] chunk = in.readNBytes(size);
            if (chunk.length < size) {
                throw new EOFException("a chunk ended early");
            }
            body.write(chunk);
            line(); // the CRLF after the chunk
        }
    }

    /** One header line without its CRLF, or null at the end of the stream. */
    private String line() throws IOException {
        StringBuilder line = new StringBuilder(64);
        int c;
        while ((c = in.read()) != -1) {
            if (c == '\n') {
                int length = line.length();
                if (length > 0 && line.charAt(length - 1) == '\r') {
                    line.setLength(length - 1);
                }
                return line.toString();
            }
            line.append((char) c);
        }
        return line.length() == 0 ? null : line.toString();
    }

    private void connect() throws IOException {
        Socket s = new Socket();
        try {
            s.setTcpNoDelay(true);
            s.setSoTimeout(TIMEOUT_MILLIS);
            s.connect(new InetSocketAddress(host, port), 5_000);
            in = new BufferedInputStream(s.getInputStream(), 16 * 1024);
            out = new BufferedOutputStream(s.getOutputStream(), 8 * 1024);
        } catch (IOException e) {
            s.close();
            throw e;
        }
        socket = s;
        usesOfConnection = 0;
    }

    private void closeQuietly() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
        socket = null;
        in = null;
        out = null;
    }

    @Override
    public void close() {
        closeQuietly();
    }
}
