package dev.keyright.seats.leases.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.keyright.seats.leases.entity.Holder;
import dev.keyright.seats.leases.entity.InstallBlock;
import dev.keyright.seats.licenses.entity.License;
import dev.keyright.seats.licenses.entity.Policy;
import jakarta.persistence.EntityManager;
import jakarta.persistence.TypedQuery;
import java.lang.reflect.Proxy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A checkout reads the license's blocks only while the license row says there may be some, and clears that when none is in force. */
class InstallBlocksTest {

    private static final Instant NOW = Instant.parse("2026-12-06T07:00:00Z");

    private final License license = new License("lic_1", "acme", "hash", new Policy(5, 120, 5), null, null, NOW);
    private final Holder holder = new Holder("inst-1", null, null);
    private final List<String> calls = new ArrayList<>();
    private final InstallBlocks blocks = new InstallBlocks();

    @Test
    void aLicenseWhoseRowSaysNoBlocksIsNotReadAtAll() {
        blocks.em = database(List.of());

        assertTrue(blocks.refusal(license, holder, NOW).isEmpty());
        assertEquals(List.of(), calls, "no statement under the license lock");
    }

    @Test
    void aLicenseThatMayHaveBlocksIsReadAndClearedWhenNoneIsInForce() {
        license.noteBlocks(true);
        blocks.em = database(List.of());

        assertTrue(blocks.refusal(license, holder, NOW).isEmpty());
        assertEquals(List.of(InstallBlock.FIND_IN_FORCE), calls);
        assertFalse(license.mayHaveBlocks(), "the next checkouts skip the read");
    }

    @Test
    void aBlockInForceRefusesItsInstallOnlyAndKeepsTheFlag() {
        license.noteBlocks(true);
        blocks.em = database(List.of(new InstallBlock("lic_1", "inst-1", NOW.minusSeconds(10), NOW.plusSeconds(60))));

        assertTrue(blocks.refusal(license, holder, NOW).isPresent());
        assertTrue(blocks.refusal(license, new Holder("inst-2", null, null), NOW).isEmpty(), "another install is not blocked");
        assertTrue(license.mayHaveBlocks());
    }

    /** An EntityManager that answers the in-force query with {@code inForce} and records the queries asked. */
    @SuppressWarnings("unchecked")
    private EntityManager database(List<InstallBlock> inForce) {
        TypedQuery<InstallBlock> query = (TypedQuery<InstallBlock>) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[]{TypedQuery.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "setParameter" -> proxy;
                    case "getResultList" -> inForce;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
        return (EntityManager) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[]{EntityManager.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("createNamedQuery")) {
                        calls.add((String) args[0]);
                        return query;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }
}
