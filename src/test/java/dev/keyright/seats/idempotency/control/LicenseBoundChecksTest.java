package dev.keyright.seats.idempotency.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A license's bound is checked at the first store on a node, then every tenth of the bound (1 to 100 stores). */
class LicenseBoundChecksTest {

    private final LicenseBoundChecks checks = new LicenseBoundChecks();

    @Test
    void thePeriodIsATenthOfTheBoundBetweenOneAndAHundred() {
        assertEquals(1, LicenseBoundChecks.period(1));
        assertEquals(1, LicenseBoundChecks.period(19));
        assertEquals(2, LicenseBoundChecks.period(20));
        assertEquals(20, LicenseBoundChecks.period(200));
        assertEquals(100, LicenseBoundChecks.period(1_000));
        assertEquals(100, LicenseBoundChecks.period(1_000_000));
    }

    @Test
    void theFirstStoreChecksThenEveryPeriodThStore() {
        assertEquals(List.of(1, 21, 41, 61), checkedStores("lic-1", 200, 70));
        assertEquals(List.of(1, 101, 201), checkedStores("lic-2", 1_000, 250));
    }

    @Test
    void aSmallBoundIsCheckedAtEveryStore() {
        for (int i = 0; i < 30; i++) {
            assertTrue(checks.due("lic-small", 15));
        }
    }

    @Test
    void eachLicenseCountsItsOwnStores() {
        assertTrue(checks.due("lic-a", 200));
        assertTrue(checks.due("lic-b", 200), "another license's first store is checked too");
        assertFalse(checks.due("lic-a", 200));
        assertFalse(checks.due("lic-b", 200));
    }

    @Test
    void aLicenseForgottenWhenTheMapIsFullIsCheckedAtItsNextStore() {
        assertTrue(checks.due("lic-kept", 200));
        assertFalse(checks.due("lic-kept", 200));
        for (int i = 0; i < LicenseBoundChecks.MAX_LICENSES; i++) {
            checks.due("lic-" + i, 200);
        }
        assertTrue(checks.due("lic-kept", 200));
    }

    /** The 1-based numbers of the stores, out of {@code stores}, that check the license's bound. */
    private List<Integer> checkedStores(String licenseId, int bound, int stores) {
        List<Integer> checked = new ArrayList<>();
        for (int store = 1; store <= stores; store++) {
            if (checks.due(licenseId, bound)) {
                checked.add(store);
            }
        }
        return checked;
    }
}
