package dev.keyright.seats.admins.entity;

import dev.keyright.seats.problems.BusinessException;

/**
 * The admin page's "Sign out": a 401 without a challenge, so the browser drops the Basic credentials the server
 * rejected and asks for none (HTTP Basic has no session to end).
 */
public class SignedOutException extends BusinessException {

    public SignedOutException() {
        super("signed-out", "The browser no longer sends the admin credentials. Reload the page to sign in again.");
    }
}
