package dev.keyright.seats.admins.boundary;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.security.enterprise.credential.UsernamePasswordCredential;
import jakarta.security.enterprise.identitystore.CredentialValidationResult;
import jakarta.security.enterprise.identitystore.IdentityStore;
import java.util.Set;

/** Jakarta Security: the built-in administrator, in group {@value #ROLE} (see {@link AdminAuthentication}). */
@ApplicationScoped
public class AdminIdentityStore implements IdentityStore {

    public static final String ROLE = "keyright-admin";

    @EJB
    AdminCredentials credentials;

    public CredentialValidationResult validate(UsernamePasswordCredential credential) {
        if (credentials.verify(credential.getCaller(), credential.getPassword().getValue())) {
            return new CredentialValidationResult(credential.getCaller(), Set.of(ROLE));
        }
        return CredentialValidationResult.INVALID_RESULT;
    }
}
