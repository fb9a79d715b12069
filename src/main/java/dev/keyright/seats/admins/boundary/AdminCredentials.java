package dev.keyright.seats.admins.boundary;

import dev.keyright.seats.admins.entity.Setting;
import dev.keyright.seats.configuration.KeyrightConfig;
import dev.keyright.seats.database.QuietConflicts;
import jakarta.annotation.Resource;
import jakarta.ejb.Lock;
import jakarta.ejb.LockType;
import jakarta.ejb.Singleton;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.interceptor.Interceptors;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.logging.Logger;

/**
 * The built-in administrator: {@code KEYRIGHT_ADMIN_USER} with {@code KEYRIGHT_ADMIN_PASSWORD}, or, when
 * no password is configured, one generated at first start, printed once, and kept only as a hash.
 * Enterprises can instead map role {@code keyright-admin} to their own realm.
 */
@Singleton
@Lock(LockType.READ)
@TransactionAttribute(TransactionAttributeType.SUPPORTS)
public class AdminCredentials {

    static final String GENERATED_HASH = "admin.password.generated";
    private static final Logger LOG = Logger.getLogger(AdminCredentials.class.getName());

    @PersistenceContext
    EntityManager em;
    @Inject
    KeyrightConfig config;
    @Resource
    TransactionSynchronizationRegistry transactions;

    private volatile String passwordHash;
    private final VerifiedCredentials recentlyVerified = new VerifiedCredentials();

    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    @Interceptors(QuietConflicts.class) // a node that loses the first insert to another says so in one line (StartUp)
    @Lock(LockType.WRITE)
    public void load() {
        if (config.adminPassword().isPresent()) {
            passwordHash = PasswordHash.of(config.adminPassword().get().toCharArray());
            LOG.info(() -> "Admin user '" + config.adminUser() + "' uses the password from KEYRIGHT_ADMIN_PASSWORD");
            return;
        }
        Setting stored = em.find(Setting.class, GENERATED_HASH);
        if (stored == null) {
            String password = PasswordHash.generatePassword();
            stored = new Setting(GENERATED_HASH, PasswordHash.of(password.toCharArray()));
            em.persist(stored);
            em.flush();
            // Shown only once it is stored: on Galera a node that lost the race to another learns it at commit.
            transactions.registerInterposedSynchronization(new Synchronization() {
                @Override
                public void beforeCompletion() {
                }

                @Override
                public void afterCompletion(int status) {
                    if (status == Status.STATUS_COMMITTED) {
                        LOG.warning("Generated the admin password (shown this once; set KEYRIGHT_ADMIN_PASSWORD to choose one):"
                                + " user '" + config.adminUser() + "', password '" + password + "'");
                    }
                }
            });
        } else {
            LOG.info(() -> "Admin user '" + config.adminUser() + "' uses the password generated at first start");
        }
        passwordHash = stored.value();
    }

    /**
     * Checks the credentials. PBKDF2 is slow on purpose (about 60 ms), so credentials that verified in
     * the last minutes are remembered (as a keyed digest, never in clear): the admin page polling every
     * few seconds does not pay it each time, and a wrong password always does.
     */
    public boolean verify(String user, char[] password) {
        if (recentlyVerified.contains(user, password)) {
            return true;
        }
        boolean userMatches = MessageDigest.isEqual(user.getBytes(StandardCharsets.UTF_8),
                config.adminUser().getBytes(StandardCharsets.UTF_8));
        boolean passwordMatches = passwordHash != null && PasswordHash.matches(password, passwordHash);
        if (userMatches && passwordMatches) {
            recentlyVerified.add(user, password);
            return true;
        }
        return false;
    }
}
