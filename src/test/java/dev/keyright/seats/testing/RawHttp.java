package dev.keyright.seats.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 over a plain socket to 127.0.0.1, sending the request target exactly as written (no client
 * library normalizes dot segments or refuses odd characters), one request per connection.
 */
public final class RawHttp {

    private final int port;

    public RawHttp(URL base) {
        this.port = base.getPort();
    }

    public Reply send(String method, String target, Map<String, String> headers, String body) {
        byte[] content = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        StringBuilder request = new StringBuilder(method).append(' ').append(target).append(" HTTP/1.1\r\n")
                .append("Host: 127.0.0.1:").append(port).append("\r\nConnection: close\r\n");
        headers.forEach((name, value) -> request.append(name).append(": ").append(value).append("\r\n"));
        if (body != null) {
            request.append("Content-Length: ").append(content.length).append("\r\n");
        }
        request.append("\r\n");
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.toString().getBytes(StandardCharsets.ISO_8859_1));
            out.write(content);
            out.flush();
            return Reply.parse(readAll(socket.getInputStream()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] readAll(InputStream in) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        in.transferTo(all);
        return all.toByteArray();
    }

    /** A parsed answer: status, headers (names in lower case, first value), body. */
    public record Reply(int status, Map<String, String> headers, String body) {

        /** Reads one answer from a connection the server may keep open: its head, then Content-Length bytes. */
        public static Reply read(InputStream in) throws IOException {
            ByteArrayOutputStream raw = new ByteArrayOutputStream();
            int matched = 0;
            while (matched < 4) {
                int b = in.read();
                if (b < 0) {
                    return parse(raw.toByteArray());
                }
                raw.write(b);
                matched = (b == (matched % 2 == 0 ? '\r' : '\n')) ? matched + 1 : (b == '\r' ? 1 : 0);
            }
            Reply head = parse(raw.toByteArray());
            String length = head.header("Content-Length");
            if (length != null) {
                raw.write(in.readNBytes(Integer.parseInt(length)));
            }
            return parse(raw.toByteArray());
        }

        static Reply parse(byte[] raw) {
            int end = indexOf(raw, "\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1), 0);
            String head = new String(raw, 0, end < 0 ? raw.length : end, StandardCharsets.ISO_8859_1);
            byte[] body = end < 0 ? new byte[0] : java.util.Arrays.copyOfRange(raw, end + 4, raw.length);
            String[] lines = head.split("\r\n");
            int status = lines.length > 0 && lines[0].startsWith("HTTP/1.") ? Integer.parseInt(lines[0].substring(9, 12)) : -1;
            Map<String, String> headers = new LinkedHashMap<>();
            for (int i = 1; i < lines.length; i++) {
                int colon = lines[i].indexOf(':');
                if (colon > 0) {
                    headers.putIfAbsent(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
                }
            }
            if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
                body = unchunk(body);
            }
            return new Reply(status, headers, new String(body, StandardCharsets.UTF_8));
        }

        private static byte[] unchunk(byte[] chunked) {
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            byte[] crlf = "\r\n".getBytes(StandardCharsets.ISO_8859_1);
            int at = 0;
            while (at < chunked.length) {
                int lineEnd = indexOf(chunked, crlf, at);
                if (lineEnd < 0) {
                    break;
                }
                int size = Integer.parseInt(new String(chunked, at, lineEnd - at, StandardCharsets.ISO_8859_1).split(";")[0].trim(), 16);
                if (size == 0) {
                    break;
                }
                body.write(chunked, lineEnd + 2, Math.min(size, chunked.length - lineEnd - 2));
                at = lineEnd + 2 + size + 2;
            }
            return body.toByteArray();
        }

        private static int indexOf(byte[] in, byte[] what, int from) {
            outer:
            for (int i = from; i + what.length <= in.length; i++) {
                for (int j = 0; j < what.length; j++) {
                    if (in[i + j] != what[j]) {
                        continue outer;
                    }
                }
                return i;
            }
            return -1;
        }

        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        @Override
        public String toString() {
            return status + " " + headers + " " + (body.length() > 300 ? body.substring(0, 300) + "..." : body);
        }
    }
}
