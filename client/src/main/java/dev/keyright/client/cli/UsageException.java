package dev.keyright.client.cli;

/** The command line is wrong: the CLI prints the reason and the usage, and exits with 2. */
final class UsageException extends Exception {

    private static final long serialVersionUID = 1L;

    UsageException(String message) {
        super(message);
    }
}
