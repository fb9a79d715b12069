package dev.keyright.seats.admins.boundary;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.security.enterprise.authentication.mechanism.http.BasicAuthenticationMechanismDefinition;
import jakarta.security.enterprise.credential.UsernamePasswordCredential;
import jakarta.security.enterprise.identitystore.CredentialValidationResult;
import jakarta.security.enterprise.identitystore.IdentityStore;
import java.util.Set;

/** Jakarta Security: HTTP Basic against the built-in administrator, in group {@value #ROLE}. */
@ApplicationScoped
@BasicAuthenticationMechanismDefinition(realmName = "keyright")
public class AdminIdentityStore implements IdentityStore {

    public static final String ROLE = "keyright-admin";

    @Inject
    AdminCredentials credentials;

    public CredentialValidationResult validate(UsernamePasswordCredential credential) {
        if (credentials.verify(credential.getCaller(), credential.getPassword().getValue())) {
            return new CredentialValidationResult(credential.getCaller(), Set.of(ROLE));
        }
        return CredentialValidationResult.INVALID_RESULT;
    }
}
