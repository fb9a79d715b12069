package dev.keyright.seats.problems;

/** The request path is not in its one canonical form (docs/API.md, "Request paths"). */
public class InvalidPathException extends BusinessException {

    public InvalidPathException() {
        super("invalid-path", "The request path is not canonical: no ';', no percent-encoding, no empty, '.' or '..' segments.");
    }
}
