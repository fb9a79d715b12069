/*
 * Keyright Seats admin page. Plain DOM, no framework, no network access beyond this server's admin API,
 * under a strict Content-Security-Policy (no inline script or style). Every value from the API is
 * untrusted: it reaches the page only through textContent and attribute values, never as markup.
 */
'use strict';

(function () {
    const LICENSES = apiBase('../v1/admin/licenses');
    const LOGOUT = apiBase('logout');
    const POOL_REFRESH_MS = 5000;
    const USAGE_REFRESH_MS = 60000;
    const USAGE_CHANGED_MS = 10000;     // a pool that changed reloads its usage, at most this often
    const SVG = 'http://www.w3.org/2000/svg';
    const RANGES = {
        hour: { label: 'Last 24 hours', button: '24 hours' },
        day: { label: 'Last 30 days', button: '30 days' }
    };

    const cards = new Map();        // licenseId -> card
    let serverOffsetMs = 0;         // server clock minus browser clock, from the Date header
    let inFlight = null;
    let refreshQueued = false;
    let signedOut = false;

    /**
     * The admin API's address, relative to this page but without any user:password@ the page was opened
     * with: fetch refuses URLs that carry credentials, and the browser sends its Basic credentials anyway.
     */
    function apiBase(relative) {
        const url = new URL(relative, document.baseURI);
        url.username = '';
        url.password = '';
        return url.href;
    }

    // ---- small DOM helpers -------------------------------------------------------------------------

    function el(tag, className, text) {
        const node = document.createElement(tag);
        if (className) {
            node.className = className;
        }
        if (text !== undefined && text !== null) {
            node.textContent = String(text);
        }
        return node;
    }

    function svg(tag, attributes, parent) {
        const node = document.createElementNS(SVG, tag);
        for (const [name, value] of Object.entries(attributes || {})) {
            node.setAttribute(name, String(value));
        }
        if (parent) {
            parent.appendChild(node);
        }
        return node;
    }

    function svgText(parent, attributes, text) {
        const node = svg('text', attributes, parent);
        node.textContent = String(text);
        return node;
    }

    function str(value, fallback) {
        return typeof value === 'string' && value.length > 0 ? value : fallback;
    }

    function int(value) {
        return Number.isFinite(value) ? Math.max(0, Math.trunc(value)) : 0;
    }

    function instant(text) {
        const millis = typeof text === 'string' ? Date.parse(text) : NaN;
        return Number.isNaN(millis) ? null : millis;
    }

    function serverNow() {
        return Date.now() + serverOffsetMs;
    }

    function two(n) {
        return n < 10 ? '0' + n : String(n);
    }

    function clockTime(millis) {
        const d = new Date(millis);
        return two(d.getHours()) + ':' + two(d.getMinutes()) + ':' + two(d.getSeconds());
    }

    function dateTime(millis) {
        return new Date(millis).toLocaleString(undefined, {
            year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit'
        });
    }

    function since(millis) {
        const d = new Date(millis);
        const today = new Date(serverNow());
        return d.toDateString() === today.toDateString() ? clockTime(millis) : dateTime(millis);
    }

    function countdown(ms) {
        const total = Math.ceil(ms / 1000);
        const h = Math.floor(total / 3600);
        const m = Math.floor((total % 3600) / 60);
        const s = total % 60;
        return h > 0 ? h + ':' + two(m) + ':' + two(s) : m + ':' + two(s);
    }

    function setStatus(text, isError) {
        const status = document.getElementById('status');
        status.textContent = text;
        status.classList.toggle('error', Boolean(isError));
    }

    // ---- the admin API ----------------------------------------------------------------------------

    class ApiError extends Error {
        constructor(status, problem) {
            super(ApiError.describe(status, problem));
            this.status = status;
            this.problem = problem;
        }

        static describe(status, problem) {
            if (status === 401) {
                return 'not signed in as an administrator (reload the page to sign in)';
            }
            if (status === 0) {
                return 'the server cannot be reached';
            }
            const detail = problem && (str(problem.detail) || str(problem.title));
            const errors = problem && Array.isArray(problem.errors)
                ? problem.errors.map((e) => (e ? str(e.field, '?') + ' ' + str(e.message, '') : '?')).join('; ')
                : '';
            return (detail || 'HTTP ' + status) + (errors ? ' (' + errors + ')' : '');
        }
    }

    function noteServerTime(response) {
        const date = Date.parse(response.headers.get('Date') || '');
        if (!Number.isNaN(date)) {
            const offset = date + 500 - Date.now();    // Date has whole seconds: aim at the middle
            if (Math.abs(offset - serverOffsetMs) > 1500) {
                serverOffsetMs = Math.abs(offset) > 1500 ? offset : 0;
            }
        }
    }

    async function api(method, path, body) {
        const init = {
            method: method,
            credentials: 'same-origin',
            cache: 'no-store',
            headers: { 'Accept': 'application/json, application/problem+json' }
        };
        if (body !== undefined) {
            init.headers['Content-Type'] = 'application/json';
            init.body = JSON.stringify(body);
        }
        let response;
        try {
            response = await fetch(path, init);
        } catch (networkFailure) {
            throw new ApiError(0, null);
        }
        noteServerTime(response);
        let data = null;
        if (response.status !== 204 && /json/i.test(response.headers.get('Content-Type') || '')) {
            try {
                data = await response.json();
            } catch (malformed) {
                data = null;
            }
        }
        if (!response.ok) {
            throw new ApiError(response.status, data);
        }
        return data;
    }

    function licensePath(licenseId) {
        return LICENSES + '/' + encodeURIComponent(licenseId);
    }

    // ---- refreshing the pools -----------------------------------------------------------------------

    function refresh() {
        if (signedOut) {
            return Promise.resolve();
        }
        if (inFlight) {
            refreshQueued = true;
            return inFlight;
        }
        inFlight = load().finally(() => {
            inFlight = null;
            if (refreshQueued) {
                refreshQueued = false;
                refresh();
            }
        });
        return inFlight;
    }

    async function load() {
        try {
            const data = await api('GET', LICENSES);
            render(data && Array.isArray(data.licenses) ? data.licenses : []);
            setStatus('Updated ' + clockTime(Date.now()), false);
        } catch (e) {
            setStatus('Could not refresh: ' + e.message, true);
        }
    }

    function render(licenses) {
        const list = document.getElementById('licenses');
        const seen = new Set();
        let previous = null;
        for (const license of licenses) {
            if (!license || typeof license.licenseId !== 'string' || seen.has(license.licenseId)) {
                continue;
            }
            seen.add(license.licenseId);
            let card = cards.get(license.licenseId);
            if (!card) {
                card = createCard(license.licenseId);
                cards.set(license.licenseId, card);
            }
            updateCard(card, license);
            const expected = previous ? previous.nextSibling : list.firstChild;
            if (expected !== card.root) {
                list.insertBefore(card.root, expected);
            }
            previous = card.root;
        }
        for (const [id, card] of cards) {
            if (!seen.has(id)) {
                card.root.remove();
                cards.delete(id);
            }
        }
        document.getElementById('licenses-empty').hidden = cards.size > 0;
        tick();
    }

    // ---- one license: facts, gauge, holders, usage ---------------------------------------------------

    function createCard(licenseId) {
        const card = { id: licenseId, holders: new Map(), bucket: 'hour', usageSeq: 0, usageLoadedAt: 0, usageLoading: false };
        const root = el('article', 'license');
        root.setAttribute('data-license-id', licenseId);
        card.root = root;

        const head = el('header', 'license-head');
        const title = el('h3', 'license-title');
        card.product = el('span', 'product');
        card.status = el('span', 'badge');
        title.append(card.product, ' ', card.status);
        card.facts = el('dl', 'facts');
        head.append(title, card.facts);

        const gauge = el('div', 'gauge');
        card.gaugeLabel = el('p', 'gauge-label');
        card.gaugeSvg = svg('svg', { 'class': 'gauge-bar', viewBox: '0 0 100 8', preserveAspectRatio: 'none', role: 'img' });
        svg('rect', { 'class': 'gauge-track', x: 0, y: 0, width: 100, height: 8, rx: 1.5 }, card.gaugeSvg);
        card.gaugeFill = svg('rect', { 'class': 'gauge-fill', x: 0, y: 0, width: 0, height: 8, rx: 1.5 }, card.gaugeSvg);
        gauge.append(card.gaugeLabel, card.gaugeSvg);

        card.error = el('p', 'error card-error');
        card.error.setAttribute('role', 'alert');
        card.error.hidden = true;

        const table = el('table', 'holders');
        table.append(el('caption', null, 'Seat holders'));
        const headRow = el('tr');
        for (const name of ['User', 'Host', 'Install', 'Since', 'Expires in', 'Borrowed until', '']) {
            const th = el('th', null, name);
            th.setAttribute('scope', 'col');
            headRow.append(th);
        }
        const thead = el('thead');
        thead.append(headRow);
        card.tbody = el('tbody');
        table.append(thead, card.tbody);
        card.table = el('div', 'table-wrap');
        card.table.append(table);
        card.noHolders = el('p', 'no-holders', 'No seats in use.');

        card.machines = createActivations(card);

        card.queue = el('section', 'queue');
        card.queue.append(el('h4', null, 'Waiting for a seat, first first'));
        card.waiting = el('ol', 'waiting');
        card.queue.append(card.waiting);
        card.queue.hidden = true;

        root.append(head, gauge, card.error, card.table, card.noHolders, card.machines, card.queue, createSettings(card), createUsage(card));
        return card;
    }

    function fact(list, name, value, className) {
        const wrap = el('div');
        wrap.append(el('dt', null, name), el('dd', className, value));
        list.append(wrap);
    }

    function updateCard(card, license) {
        const pool = license.pool && typeof license.pool === 'object' ? license.pool : {};
        const max = int(typeof pool.max === 'number' ? pool.max : license.seats);
        const holders = Array.isArray(pool.holders) ? pool.holders : [];
        const inUse = int(typeof pool.inUse === 'number' ? pool.inUse : holders.length);
        const status = str(license.status, 'unknown');

        card.product.textContent = str(license.product, '(no product)');
        card.status.textContent = status;
        card.status.className = 'badge badge-' + (status === 'active' ? 'active' : 'inactive');

        card.facts.replaceChildren();
        fact(card.facts, 'License', card.id, 'id');
        const nodeLocked = license.model === 'node-locked';
        fact(card.facts, 'Model', nodeLocked ? 'node-locked: ' + int(license.maxActivations) + ' machines, '
            + int(license.offlineDays) + ' days offline' : 'floating seats', 'model');
        if (!nodeLocked && int(license.maxBorrowHours) > 0) {
            fact(card.facts, 'Borrowing', 'up to ' + int(license.maxBorrowHours) + ' h offline', 'max-borrow');
        }
        fact(card.facts, 'Customer', str(license.customer, '—'));
        fact(card.facts, 'Lease TTL', int(license.ttlSeconds) + ' s (skew ' + int(license.skewSeconds) + ' s)');
        const notAfter = instant(license.notAfter);
        fact(card.facts, 'Valid until', notAfter === null ? 'no end date' : dateTime(notAfter));
        const created = instant(license.createdAt);
        if (created !== null) {
            fact(card.facts, 'Created', dateTime(created));
        }
        policyFacts(card, license, pool);
        card.license = license;
        if (!card.settings.open) {
            fillSettings(card, license);
        }

        const waiting = Array.isArray(pool.waiting) ? pool.waiting : [];
        const queued = int(typeof pool.queued === 'number' ? pool.queued : waiting.length);
        const label = inUse + ' of ' + max + ' seats in use' + (queued > 0 ? ', ' + queued + ' waiting' : '');
        const overdraftInUse = int(pool.overdraftInUse);
        card.gaugeLabel.textContent = inUse <= max ? label
            : label + (overdraftInUse > 0 ? ' (' + overdraftInUse + ' out of the overdraft)' : ' (over the limit: seats were lowered)');
        card.gaugeSvg.setAttribute('aria-label', label);
        const fraction = max > 0 ? Math.min(1, inUse / max) : (inUse > 0 ? 1 : 0);
        card.gaugeFill.setAttribute('width', (fraction * 100).toFixed(2));
        card.gaugeSvg.classList.toggle('busy', fraction >= 0.8 && fraction < 1);
        card.gaugeSvg.classList.toggle('full', fraction >= 1);

        if (nodeLocked) {
            const machines = Array.isArray(license.activations) ? license.activations : [];
            const activated = int(typeof license.activationsInUse === 'number' ? license.activationsInUse : machines.length);
            const most = int(license.maxActivations);
            const text = activated + ' of ' + most + ' machines activated';
            card.gaugeLabel.textContent = text;
            card.gaugeSvg.setAttribute('aria-label', text);
            const share = most > 0 ? Math.min(1, activated / most) : 0;
            card.gaugeFill.setAttribute('width', (share * 100).toFixed(2));
            card.gaugeSvg.classList.toggle('busy', share >= 0.8 && share < 1);
            card.gaugeSvg.classList.toggle('full', share >= 1);
            updateActivations(card, machines);
        }
        card.machines.hidden = !nodeLocked;
        updateHolders(card, nodeLocked ? [] : holders);
        if (nodeLocked) {
            card.table.hidden = true;
            card.noHolders.hidden = true;
        }
        updateWaiting(card, waiting);
        if (card.lastInUse !== undefined && card.lastInUse !== inUse) {
            card.usageStale = true;
        }
        card.lastInUse = inUse;
        const age = Date.now() - card.usageLoadedAt;
        if (!card.usageLoading && (age > USAGE_REFRESH_MS || (card.usageStale && age > USAGE_CHANGED_MS))) {
            loadUsage(card);
        }
    }

    /** The seat policies, when the license has any: overdraft (in use), linger, caps, reservations (in use). */
    function policyFacts(card, license, pool) {
        const overdraft = int(license.overdraftSeats);
        if (overdraft > 0) {
            fact(card.facts, 'Overdraft', overdraft + ' seats (' + int(pool.overdraftInUse) + ' in use)', 'overdraft');
        }
        const linger = int(license.lingerSeconds);
        if (linger > 0) {
            fact(card.facts, 'Linger', linger + ' s after a release', 'linger');
        }
        if (typeof license.maxPerUser === 'number') {
            fact(card.facts, 'Per user', 'at most ' + int(license.maxPerUser), 'max-per-user');
        }
        if (typeof license.maxPerHost === 'number') {
            fact(card.facts, 'Per host', 'at most ' + int(license.maxPerHost), 'max-per-host');
        }
        const reserved = Array.isArray(pool.reserved) ? pool.reserved : [];
        if (reserved.length > 0) {
            fact(card.facts, 'Reserved', reserved.map((r) => str(r && r.name, '?') + ' ' + int(r && r.inUse) + '/'
                + int(r && r.seats)).join(', '), 'reserved');
        }
    }

    // ---- one license's settings: a PATCH of what changed, the server's errors next to their fields ----

    const SETTINGS = [
        { name: 'seats', label: 'Seats', kind: 'number', min: 1 },
        { name: 'ttlSeconds', label: 'TTL (s)', kind: 'number', min: 2 },
        { name: 'skewSeconds', label: 'Skew (s)', kind: 'number', min: 0 },
        { name: 'status', label: 'Status', kind: 'status' },
        { name: 'overdraftSeats', label: 'Overdraft seats', kind: 'number', min: 0 },
        { name: 'lingerSeconds', label: 'Linger (s)', kind: 'number', min: 0 },
        { name: 'maxPerUser', label: 'Max per user', kind: 'cap' },
        { name: 'maxPerHost', label: 'Max per host', kind: 'cap' },
        { name: 'maxBorrowHours', label: 'Borrow up to (h, 0 = off)', kind: 'number', min: 0 },
        { name: 'maxActivations', label: 'Max activations (node-locked)', kind: 'cap' },
        { name: 'offlineDays', label: 'Offline days (node-locked)', kind: 'number', min: 1 }
    ];

    function createSettings(card) {
        const details = el('details', 'settings');
        details.append(el('summary', null, 'Settings and seat policies'));
        const form = el('form', 'settings-form');
        form.setAttribute('autocomplete', 'off');
        card.inputs = {};
        card.fieldErrors = new Map();
        for (const setting of SETTINGS) {
            const label = el('label', 'setting');
            label.append(setting.label);
            let input;
            if (setting.kind === 'status') {
                input = el('select');
                for (const value of ['active', 'suspended']) {
                    const option = el('option', null, value);
                    option.value = value;
                    input.append(option);
                }
            } else {
                input = el('input');
                input.type = 'number';
                input.step = '1';
                input.min = String(setting.kind === 'cap' ? 1 : setting.min);
                if (setting.kind === 'cap') {
                    input.placeholder = 'no cap';
                }
            }
            input.name = setting.name;
            label.append(input, fieldError(card, setting.name));
            card.inputs[setting.name] = input;
            form.append(label);
        }
        const reservations = el('fieldset', 'reservations');
        reservations.append(el('legend', null, 'Reserved seats (a holder matches by the user or host its client reports)'));
        card.reservationRows = el('div', 'reservation-rows');
        const add = el('button', 'add-reservation', 'Add a reservation');
        add.type = 'button';
        add.addEventListener('click', () => addReservationRow(card, { name: '', users: [], hosts: [], seats: 1 }));
        reservations.append(card.reservationRows, fieldError(card, 'reservations'), add);
        form.append(reservations);
        card.settingsError = el('p', 'error settings-error');
        card.settingsError.setAttribute('role', 'alert');
        card.settingsError.hidden = true;
        const save = el('button', 'save-settings', 'Save');
        save.type = 'submit';
        form.append(card.settingsError, save);
        form.addEventListener('submit', (event) => {
            event.preventDefault();
            saveSettings(card, save);
        });
        details.addEventListener('toggle', () => {
            if (details.open && card.license) {
                fillSettings(card, card.license);
            }
        });
        details.append(form, createKeyReplacement(card));
        card.settings = details;
        return details;
    }

    /** A new key for a leaked one: asked twice, shown once. */
    function createKeyReplacement(card) {
        const box = el('section', 'key-replacement');
        box.append(el('h4', null, 'License key'));
        const ask = el('button', 'replace-key', 'Replace the key\u2026');
        ask.type = 'button';
        const confirmBox = el('div', 'replace-key-confirm');
        confirmBox.hidden = true;
        confirmBox.append(el('p', null, 'The old key stops working at once: installs still using it are refused at '
            + 'their next heartbeat and lose their seats. Give every install the new key.'));
        const confirm = el('button', 'confirm-replace-key', 'Replace the key now');
        confirm.type = 'button';
        const cancel = el('button', 'cancel-replace-key', 'Keep the key');
        cancel.type = 'button';
        confirmBox.append(confirm, cancel);
        const shown = el('p', 'new-key');
        shown.hidden = true;
        const error = el('p', 'error key-error');
        error.setAttribute('role', 'alert');
        error.hidden = true;
        ask.addEventListener('click', () => { confirmBox.hidden = false; ask.hidden = true; });
        cancel.addEventListener('click', () => { confirmBox.hidden = true; ask.hidden = false; });
        confirm.addEventListener('click', async () => {
            confirm.disabled = true;
            error.hidden = true;
            try {
                const replaced = await api('POST', licensePath(card.id) + '/key');
                shown.textContent = '';
                const code = el('code', 'license-key', str(replaced.licenseKey, ''));
                shown.append('New key, shown this once: ', code);
                shown.hidden = false;
                confirmBox.hidden = true;
                ask.hidden = false;
            } catch (e) {
                error.textContent = 'Could not replace the key: ' + e.message;
                error.hidden = false;
            } finally {
                confirm.disabled = false;
            }
        });
        box.append(ask, confirmBox, shown, error);
        return box;
    }

    function fieldError(card, field) {
        const error = el('span', 'field-error');
        error.setAttribute('data-field', field);
        error.hidden = true;
        card.fieldErrors.set(field, error);
        return error;
    }

    function addReservationRow(card, reservation) {
        const row = el('div', 'reservation');
        const index = card.reservationRows.children.length;
        const input = (name, value, placeholder, type) => {
            const label = el('label', null, placeholder);
            const field = el('input');
            field.name = name;
            field.type = type || 'text';
            field.value = value;
            label.append(field);
            row.append(label);
            return field;
        };
        row.nameInput = input('name', str(reservation.name, ''), 'Name');
        row.usersInput = input('users', (reservation.users || []).join(', '), 'Users');
        row.hostsInput = input('hosts', (reservation.hosts || []).join(', '), 'Hosts');
        row.seatsInput = input('seats', String(int(reservation.seats) || 1), 'Seats', 'number');
        row.seatsInput.min = '1';
        const remove = el('button', 'remove-reservation', 'Remove');
        remove.type = 'button';
        remove.addEventListener('click', () => row.remove());
        row.append(remove, fieldError(card, 'reservations[' + index + ']'));
        card.reservationRows.append(row);
    }

    /** The license's values into the form: when it opens, and after a save; never while it is being edited. */
    function fillSettings(card, license) {
        for (const setting of SETTINGS) {
            const value = license[setting.name];
            card.inputs[setting.name].value = value === null || value === undefined ? '' : String(value);
        }
        card.reservationRows.replaceChildren();
        for (const reservation of Array.isArray(license.reservations) ? license.reservations : []) {
            addReservationRow(card, reservation);
        }
        clearSettingsErrors(card);
    }

    function clearSettingsErrors(card) {
        for (const error of card.fieldErrors.values()) {
            error.hidden = true;
            error.textContent = '';
        }
        card.settingsError.hidden = true;
    }

    function names(text) {
        return text.split(',').map((n) => n.trim()).filter((n) => n.length > 0);
    }

    /** Only the members that changed: a PATCH that changes nothing else, and says nothing it need not. */
    function settingsChanges(card) {
        const license = card.license || {};
        const change = {};
        for (const setting of SETTINGS) {
            const text = card.inputs[setting.name].value.trim();
            let value;
            if (setting.kind === 'status') {
                value = text;
            } else if (setting.kind === 'cap' && text === '') {
                value = null;
            } else {
                value = text === '' ? NaN : Number(text);
            }
            const current = license[setting.name] === undefined ? null : license[setting.name];
            if (value !== current) {
                change[setting.name] = Number.isNaN(value) ? text : value;
            }
        }
        const reservations = [...card.reservationRows.children].map((row) => ({
            name: row.nameInput.value.trim(),
            users: names(row.usersInput.value),
            hosts: names(row.hostsInput.value),
            seats: Number(row.seatsInput.value)
        }));
        if (JSON.stringify(reservations) !== JSON.stringify(Array.isArray(license.reservations) ? license.reservations : [])) {
            change.reservations = reservations.length > 0 ? reservations : null;
        }
        return change;
    }

    async function saveSettings(card, button) {
        clearSettingsErrors(card);
        const change = settingsChanges(card);
        if (Object.keys(change).length === 0) {
            card.settingsError.textContent = 'Nothing changed.';
            card.settingsError.hidden = false;
            return;
        }
        button.disabled = true;
        try {
            const updated = await api('PATCH', licensePath(card.id), change);
            card.license = updated;
            fillSettings(card, updated);
            card.settings.open = false;
            await refresh();
        } catch (e) {
            const errors = e.problem && Array.isArray(e.problem.errors) ? e.problem.errors : [];
            let placed = 0;
            for (const error of errors) {
                const field = str(error && error.field, '');
                const target = card.fieldErrors.get(field) || card.fieldErrors.get(field.replace(/\.[a-z]+$/i, ''));
                if (target) {
                    target.textContent = str(error.message, 'invalid');
                    target.hidden = false;
                    placed++;
                }
            }
            if (placed < errors.length || errors.length === 0) {
                card.settingsError.textContent = 'Could not save: ' + e.message;
                card.settingsError.hidden = false;
            }
        } finally {
            button.disabled = false;
        }
    }

    /** The license's queue, in its order: who waits, on which install, since when. */
    function updateWaiting(card, waiting) {
        card.waiting.replaceChildren();
        for (const entry of waiting) {
            const who = str(entry.user, '?') + '@' + str(entry.host, '?');
            const since = instant(entry.since);
            const item = el('li', null, who + ' · ' + str(entry.clientInstanceId, '') + (since === null ? '' : ' · since ' + dateTime(since)));
            item.setAttribute('data-install', str(entry.clientInstanceId, ''));
            card.waiting.append(item);
        }
        card.queue.hidden = waiting.length === 0;
    }

    function updateHolders(card, holders) {
        const seen = new Set();
        let previous = null;
        for (const holder of holders) {
            if (!holder || typeof holder.leaseId !== 'string' || seen.has(holder.leaseId)) {
                continue;
            }
            seen.add(holder.leaseId);
            let row = card.holders.get(holder.leaseId);
            if (!row) {
                row = createHolderRow(card, holder.leaseId);
                card.holders.set(holder.leaseId, row);
            }
            row.user.textContent = str(holder.user, '—');
            row.host.textContent = str(holder.host, '—');
            row.install.textContent = str(holder.clientInstanceId, '—');
            const tags = [];
            if (holder.overdraft === true) {
                tags.push(el('span', 'tag tag-overdraft', 'overdraft'));
            }
            const borrowed = instant(holder.borrowedUntil);
            row.borrowed.textContent = borrowed === null ? '—' : dateTime(borrowed);
            row.borrowed.setAttribute('title', str(holder.borrowedUntil, ''));
            if (borrowed !== null) {
                tags.push(el('span', 'tag tag-borrowed', 'borrowed'));
            }
            const lingering = instant(holder.lingeringUntil);
            if (lingering !== null) {
                tags.push(el('span', 'tag tag-lingering', 'released, lingering until ' + clockTime(lingering)));
            }
            row.tags.replaceChildren(...tags);
            row.tags.hidden = tags.length === 0;
            const acquired = instant(holder.acquiredAt);
            row.since.textContent = acquired === null ? '—' : since(acquired);
            row.since.setAttribute('title', str(holder.acquiredAt, ''));
            row.expiresAt = instant(holder.expiresAt);
            row.expires.setAttribute('title', str(holder.expiresAt, ''));
            const expected = previous ? previous.nextSibling : card.tbody.firstChild;
            if (expected !== row.tr) {
                card.tbody.insertBefore(row.tr, expected);
            }
            previous = row.tr;
        }
        for (const [leaseId, row] of card.holders) {
            if (!seen.has(leaseId)) {
                row.tr.remove();
                card.holders.delete(leaseId);
            }
        }
        card.table.hidden = card.holders.size === 0;
        card.noHolders.hidden = card.holders.size > 0;
    }

    function createHolderRow(card, leaseId) {
        const tr = el('tr', 'holder');
        tr.setAttribute('data-lease-id', leaseId);
        const row = { tr: tr, expiresAt: null };
        row.user = el('td', 'user');
        row.host = el('td', 'host');
        row.install = el('td', 'install');
        row.tags = el('div', 'tags');
        row.tags.hidden = true;
        row.since = el('td', 'since');
        row.expires = el('td', 'expires');
        row.borrowed = el('td', 'borrowed-until');
        const actions = el('td', 'actions');
        const revoke = el('button', 'revoke danger', 'Revoke');
        revoke.type = 'button';
        revoke.setAttribute('aria-label', 'Revoke this seat now');
        revoke.addEventListener('click', () => revokeSeat(card, leaseId, row, revoke, 0));
        const blockFor = el('select', 'block-for');
        blockFor.setAttribute('aria-label', 'How long to block this install');
        for (const [seconds, text] of [[900, '15 min'], [3600, '1 hour'], [28800, '8 hours'], [86400, '24 hours']]) {
            const option = el('option', null, text);
            option.value = String(seconds);
            blockFor.append(option);
        }
        blockFor.value = '3600';
        const block = el('button', 'revoke-block danger', 'Revoke and block for');
        block.type = 'button';
        block.setAttribute('aria-label', 'Revoke this seat and refuse its install for the chosen time');
        block.addEventListener('click', () => revokeSeat(card, leaseId, row, block, Number(blockFor.value)));
        actions.append(revoke, block, blockFor);
        row.countdown = el('span', 'countdown');
        row.expires.append(row.countdown, row.tags);
        tr.append(row.user, row.host, row.install, row.since, row.expires, row.borrowed, actions);
        return row;
    }

    async function revokeSeat(card, leaseId, row, button, blockSeconds) {
        const label = button.textContent;
        button.disabled = true;
        button.textContent = 'Revoking…';
        card.error.hidden = true;
        try {
            await api('DELETE', licensePath(card.id) + '/leases/' + encodeURIComponent(leaseId)
                + (blockSeconds > 0 ? '?blockSeconds=' + blockSeconds : ''));
            row.tr.classList.add('revoked');
            loadUsage(card);
        } catch (e) {
            if (e.status !== 404) {        // 404: already gone (released, expired or reaped)
                card.error.textContent = 'Could not revoke the seat: ' + e.message;
                card.error.hidden = false;
                button.disabled = false;
                button.textContent = label;
            }
        }
        await refresh();
    }

    // ---- node-locked activations --------------------------------------------------------------------

    function createActivations(card) {
        const section = el('section', 'machines');
        section.hidden = true;
        const table = el('table', 'holders activations');
        table.append(el('caption', null, 'Activated machines (a revoked machine keeps running offline until its certificate expires)'));
        const headRow = el('tr');
        for (const name of ['Fingerprint', 'User', 'Host', 'Activated', 'Last refresh', '']) {
            const th = el('th', null, name);
            th.setAttribute('scope', 'col');
            headRow.append(th);
        }
        const thead = el('thead');
        thead.append(headRow);
        card.activationRows = el('tbody');
        table.append(thead, card.activationRows);
        card.noMachines = el('p', 'no-holders', 'No machines activated.');
        const wrap = el('div', 'table-wrap');
        wrap.append(table);
        section.append(wrap, card.noMachines);
        return section;
    }

    function updateActivations(card, machines) {
        card.activationRows.replaceChildren();
        for (const machine of machines) {
            if (!machine || typeof machine.activationId !== 'string') {
                continue;
            }
            const tr = el('tr', 'activation');
            tr.setAttribute('data-activation-id', machine.activationId);
            const activated = instant(machine.activatedAt);
            const refreshed = instant(machine.refreshedAt);
            const actions = el('td', 'actions');
            const revoke = el('button', 'revoke-activation danger', 'Revoke');
            revoke.type = 'button';
            revoke.setAttribute('aria-label', 'Free this machine\'s activation now');
            revoke.addEventListener('click', () => revokeActivation(card, machine.activationId, tr, revoke));
            actions.append(revoke);
            tr.append(el('td', 'install fingerprint', str(machine.fingerprint, '—')), el('td', 'user', str(machine.user, '—')),
                el('td', 'host', str(machine.host, '—')), el('td', 'since', activated === null ? '—' : since(activated)),
                el('td', 'refreshed', refreshed === null ? '—' : since(refreshed)), actions);
            card.activationRows.append(tr);
        }
        card.noMachines.hidden = card.activationRows.children.length > 0;
    }

    async function revokeActivation(card, activationId, tr, button) {
        button.disabled = true;
        button.textContent = 'Revoking…';
        card.error.hidden = true;
        try {
            await api('DELETE', licensePath(card.id) + '/activations/' + encodeURIComponent(activationId));
            tr.classList.add('revoked');
        } catch (e) {
            if (e.status !== 404) {        // 404: deactivated or revoked already
                card.error.textContent = 'Could not revoke the activation: ' + e.message;
                card.error.hidden = false;
                button.disabled = false;
                button.textContent = 'Revoke';
            }
        }
        await refresh();
    }

    /** Every second: the holders' countdowns to expiresAt, on the server's clock. */
    function tick() {
        const now = serverNow();
        for (const card of cards.values()) {
            for (const row of card.holders.values()) {
                if (row.expiresAt === null) {
                    row.countdown.textContent = '—';
                    continue;
                }
                const left = row.expiresAt - now;
                row.countdown.textContent = left > 0 ? countdown(left) : 'expired';
                row.expires.classList.toggle('soon', left > 0 && left <= 10000);
                row.expires.classList.toggle('expired', left <= 0);
            }
        }
    }

    // ---- usage chart --------------------------------------------------------------------------------

    function createUsage(card) {
        const section = el('section', 'usage');
        const head = el('div', 'usage-head');
        card.usageTitle = el('h4', null, 'Usage · ' + RANGES.hour.label);
        const toggle = el('div', 'toggle');
        toggle.setAttribute('role', 'group');
        toggle.setAttribute('aria-label', 'Usage period');
        card.rangeButtons = {};
        for (const bucket of Object.keys(RANGES)) {
            const button = el('button', 'range', RANGES[bucket].button);
            button.type = 'button';
            button.setAttribute('data-bucket', bucket);
            button.setAttribute('aria-pressed', String(bucket === card.bucket));
            button.addEventListener('click', () => {
                if (card.bucket !== bucket) {
                    card.bucket = bucket;
                    for (const [b, other] of Object.entries(card.rangeButtons)) {
                        other.setAttribute('aria-pressed', String(b === bucket));
                    }
                    card.usageTitle.textContent = 'Usage · ' + RANGES[bucket].label;
                    loadUsage(card);
                }
            });
            card.rangeButtons[bucket] = button;
            toggle.append(button);
        }
        head.append(card.usageTitle, toggle);
        card.chart = el('div', 'chart');
        card.chart.append(el('p', 'chart-message', 'Loading usage…'));
        card.usageSummary = el('p', 'usage-summary');
        card.overdraftUse = el('table', 'overdraft-use');
        card.overdraftUse.hidden = true;
        section.append(head, card.chart, card.usageSummary, card.overdraftUse);
        return section;
    }

    async function loadUsage(card) {
        const seq = ++card.usageSeq;
        const bucket = card.bucket;
        card.usageLoading = true;
        card.usageStale = false;
        try {
            const data = await api('GET', licensePath(card.id) + '/usage?bucket=' + bucket);
            if (seq === card.usageSeq) {
                drawUsage(card, data, bucket);
            }
        } catch (e) {
            if (seq === card.usageSeq) {
                chartMessage(card, e.status === 404 ? 'No usage data' : 'Usage unavailable: ' + e.message);
            }
        } finally {
            if (seq === card.usageSeq) {
                card.usageLoading = false;
                card.usageLoadedAt = Date.now();
            }
        }
    }

    function chartMessage(card, text) {
        card.chart.replaceChildren(el('p', 'chart-message', text));
        card.usageSummary.textContent = '';
    }

    function drawUsage(card, data, bucket) {
        const buckets = (data && Array.isArray(data.buckets) ? data.buckets : [])
            .map((b) => ({
                start: instant(b && b.start),
                end: instant(b && b.end),
                peak: int(b && b.peakInUse),
                denials: int(b && b.denials),
                acquisitions: int(b && b.acquisitions),
                expiries: int(b && b.expiries),
                releases: int(b && b.releases),
                revocations: int(b && b.revocations),
                borrows: int(b && b.borrows),
                returns: int(b && b.returns),
                overdraft: int(b && b.overdraftCheckouts),
                peakOverdraft: int(b && b.peakOverdraft),
                byReason: b && b.denialsByReason && typeof b.denialsByReason === 'object' ? b.denialsByReason : {}
            }))
            .filter((b) => b.start !== null && b.end !== null);
        if (buckets.length === 0) {
            chartMessage(card, 'No usage data');
            return;
        }
        const maxSeats = int(data.maxSeats);
        card.chart.replaceChildren(chart(buckets, maxSeats, bucket));
        const peak = Math.max(...buckets.map((b) => b.peak));
        const sum = (key) => buckets.reduce((total, b) => total + b[key], 0);
        const reasons = {};
        for (const b of buckets) {
            for (const [reason, count] of Object.entries(b.byReason)) {
                reasons[reason] = (reasons[reason] || 0) + int(count);
            }
        }
        const byReason = Object.entries(reasons).map(([reason, count]) => reason + ' ' + count).join(', ');
        card.usageSummary.textContent = 'Highest peak ' + peak + ' of ' + maxSeats + ' seats · '
            + sum('denials') + ' denials' + (byReason ? ' (' + byReason + ')' : '') + ' · ' + sum('acquisitions') + ' acquisitions · '
            + sum('expiries') + ' expiries · ' + sum('revocations') + ' revocations'
            + (sum('borrows') > 0 ? ' · ' + sum('borrows') + ' borrowed (' + sum('returns') + ' returned early)' : '');
        const overdraftBuckets = buckets.filter((b) => b.overdraft > 0 || b.peakOverdraft > 0);
        card.overdraftUse.replaceChildren();
        card.overdraftUse.hidden = overdraftBuckets.length === 0;
        if (overdraftBuckets.length > 0) {
            card.overdraftUse.append(el('caption', null, 'Overdraft use (billed) per ' + bucket));
            for (const b of overdraftBuckets) {
                const tr = el('tr', 'overdraft-bucket');
                tr.append(el('td', null, bucketLabel(b.start, bucket)),
                    el('td', null, b.overdraft + ' overdraft checkouts'),
                    el('td', null, 'peak ' + b.peakOverdraft + ' over the seats'));
                card.overdraftUse.append(tr);
            }
        }
    }

    function bucketLabel(millis, bucket) {
        const d = new Date(millis);
        return bucket === 'day'
            ? d.toLocaleDateString(undefined, { month: 'short', day: 'numeric' })
            : two(d.getHours()) + ':00';
    }

    /** Peak concurrency (bars, with the seat limit dashed) above denials (bars on their own scale). */
    function chart(buckets, maxSeats, bucket) {
        const width = 900;
        const left = 34;
        const right = 8;
        const peakTop = 18;
        const peakHeight = 110;
        const denialTop = peakTop + peakHeight + 26;
        const denialHeight = 40;
        const axisY = denialTop + denialHeight + 16;
        const height = axisY + 6;
        const plot = width - left - right;
        const band = plot / buckets.length;
        const barWidth = Math.max(1, band * 0.72);
        const peakScale = Math.max(1, maxSeats, ...buckets.map((b) => b.peak));
        const denialScale = Math.max(1, ...buckets.map((b) => b.denials));

        const root = svg('svg', { 'class': 'usage-chart', viewBox: '0 0 ' + width + ' ' + height, role: 'img', 'data-bucket': bucket });
        root.setAttribute('aria-label', 'Peak seats in use and denials per ' + bucket + ', ' + RANGES[bucket].label.toLowerCase());

        svgText(root, { x: left, y: 12, 'class': 'chart-caption' }, 'Peak seats in use');
        svg('line', { x1: left, x2: width - right, y1: peakTop + peakHeight, y2: peakTop + peakHeight, 'class': 'axis' }, root);
        svgText(root, { x: left - 4, y: peakTop + 4, 'class': 'tick', 'text-anchor': 'end' }, peakScale);
        svgText(root, { x: left - 4, y: peakTop + peakHeight, 'class': 'tick', 'text-anchor': 'end' }, 0);

        svgText(root, { x: left, y: denialTop - 6, 'class': 'chart-caption denial-caption' }, 'Denials (every reason)');
        svg('line', { x1: left, x2: width - right, y1: denialTop + denialHeight, y2: denialTop + denialHeight, 'class': 'axis' }, root);
        svgText(root, { x: left - 4, y: denialTop + 4, 'class': 'tick', 'text-anchor': 'end' }, denialScale);
        svgText(root, { x: left - 4, y: denialTop + denialHeight, 'class': 'tick', 'text-anchor': 'end' }, 0);

        buckets.forEach((b, i) => {
            const x = left + i * band + (band - barWidth) / 2;
            const group = svg('g', { 'class': 'bucket' }, root);
            const title = svg('title', {}, group);
            title.textContent = bucketLabel(b.start, bucket) + (bucket === 'day' ? '' : '–' + bucketLabel(b.end, bucket))
                + ': peak ' + b.peak + ' of ' + maxSeats + ', ' + b.denials + ' denials, ' + b.acquisitions
                + ' acquisitions, ' + b.expiries + ' expiries, ' + b.releases + ' releases, ' + b.revocations + ' revocations';
            svg('rect', { x: left + i * band, y: peakTop, width: band, height: denialTop + denialHeight - peakTop, 'class': 'hover' }, group);
            const h = (b.peak / peakScale) * peakHeight;
            if (h > 0) {
                svg('rect', { x: x.toFixed(2), y: (peakTop + peakHeight - h).toFixed(2), width: barWidth.toFixed(2), height: h.toFixed(2),
                    'class': b.peak >= maxSeats && maxSeats > 0 ? 'peak at-limit' : 'peak' }, group);
            }
            const d = (b.denials / denialScale) * denialHeight;
            if (d > 0) {
                svg('rect', { x: x.toFixed(2), y: (denialTop + denialHeight - d).toFixed(2), width: barWidth.toFixed(2), height: d.toFixed(2),
                    'class': 'denial' }, group);
            }
        });

        if (maxSeats > 0) {
            const y = peakTop + peakHeight - (maxSeats / peakScale) * peakHeight;
            svg('line', { x1: left, x2: width - right, y1: y.toFixed(2), y2: y.toFixed(2), 'class': 'limit' }, root);
            svgText(root, { x: width - right, y: (y - 3).toFixed(2), 'class': 'tick limit-label', 'text-anchor': 'end' },
                maxSeats + ' seats');
        }

        const marks = buckets.length > 1 ? [0, Math.floor((buckets.length - 1) / 2), buckets.length - 1] : [0];
        for (const i of marks) {
            svgText(root, { x: (left + i * band + band / 2).toFixed(2), y: axisY, 'class': 'tick', 'text-anchor': 'middle' },
                bucketLabel(buckets[i].start, bucket));
        }
        return root;
    }

    // ---- creating a license -------------------------------------------------------------------------

    function showKey(created) {
        document.getElementById('new-key-product').textContent = str(created && created.product, '');
        document.getElementById('new-key-id').textContent = str(created && created.licenseId, '');
        const value = document.getElementById('new-key-value');
        value.textContent = str(created && created.licenseKey, '(the server returned no key)');
        document.getElementById('new-key-copy').textContent = 'Copy key';
        const box = document.getElementById('new-key');
        box.hidden = false;
        value.focus();
    }

    function hideKey() {
        document.getElementById('new-key-value').textContent = '';
        document.getElementById('new-key-product').textContent = '';
        document.getElementById('new-key-id').textContent = '';
        document.getElementById('new-key').hidden = true;
    }

    async function copyKey() {
        const value = document.getElementById('new-key-value');
        const button = document.getElementById('new-key-copy');
        try {
            await navigator.clipboard.writeText(value.textContent);
            button.textContent = 'Copied';
        } catch (unavailable) {
            const range = document.createRange();
            range.selectNodeContents(value);
            const selection = window.getSelection();
            selection.removeAllRanges();
            selection.addRange(range);
            button.textContent = 'Selected: press Ctrl+C';
        }
    }

    async function createLicense(event) {
        event.preventDefault();
        const form = event.target;
        const error = document.getElementById('create-error');
        const submit = document.getElementById('create-submit');
        const body = {
            product: form.elements.product.value.trim(),
            seats: Number(form.elements.seats.value)
        };
        if (form.elements.model.value === 'node-locked') {     // the count is of machines, not seats
            body.model = 'node-locked';
            body.maxActivations = body.seats;
            delete body.seats;
        }
        if (form.elements.ttlSeconds.value !== '') {
            body.ttlSeconds = Number(form.elements.ttlSeconds.value);
        }
        if (form.elements.customer.value.trim() !== '') {
            body.customer = form.elements.customer.value.trim();
        }
        error.hidden = true;
        submit.disabled = true;
        try {
            const created = await api('POST', LICENSES, body);
            form.reset();
            showKey(created);
            await refresh();
        } catch (e) {
            error.textContent = 'Could not create the license: ' + e.message;
            error.hidden = false;
        } finally {
            submit.disabled = false;
        }
    }

    // ---- signing out --------------------------------------------------------------------------------

    // Basic credentials live in the browser, not in a session: the server answers this POST (sent with them)
    // 401 without a challenge, and the browser forgets credentials the server rejected.
    async function signOut() {
        const button = document.getElementById('sign-out');
        button.disabled = true;
        signedOut = true;
        let response = null;
        try {
            response = await fetch(LOGOUT, { method: 'POST', credentials: 'same-origin', cache: 'no-store' });
        } catch (networkFailure) {
            response = null;
        }
        if (!response || response.status !== 401) {
            signedOut = false;
            button.disabled = false;
            setStatus('Could not sign out: ' + (response ? 'HTTP ' + response.status : 'the server cannot be reached'), true);
            return;
        }
        document.querySelector('main').hidden = true;
        hideKey();
        button.hidden = true;
        setStatus('Signed out. Reload the page to sign in again.', false);
    }

    // ---- start --------------------------------------------------------------------------------------

    function start() {
        document.getElementById('create-form').addEventListener('submit', createLicense);
        document.getElementById('new-key-copy').addEventListener('click', copyKey);
        document.getElementById('new-key-dismiss').addEventListener('click', hideKey);
        document.getElementById('sign-out').addEventListener('click', signOut);
        document.addEventListener('visibilitychange', () => {
            if (!document.hidden) {
                refresh();
            }
        });
        setInterval(() => {
            if (!document.hidden) {
                refresh();
            }
        }, POOL_REFRESH_MS);
        setInterval(tick, 1000);
        refresh();
    }

    start();
}());
