//! Variants judged on constructed facts. A replica that is not streaming
//! (catchup, startup) and MySQL without GTIDs cannot be held still on this
//! machine's servers; the others here (replay lag, a Redis replica, async
//! declared while commits wait) are also probed for real, on throwaway
//! replicated pairs, in tests/probe_replication.rs. Every other variant is
//! probed for real in tests/probe_*.rs.
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::probe::facts::Binlog;
use crate::probe::{DbFacts, Facts, Observations, Probe, RedisFacts, Replica, Role};
use crate::registry::{Analyses, RuleCtx};
use crate::settings::{ProbeSettings, Settings};
use crate::source::SourceFile;
use crate::workspace::Workspace;

pub(super) fn judge(
    contract: &str,
    role: Role,
    facts: Facts,
) -> Vec<(RuleId, Option<&'static str>)> {
    reports(contract, role, facts)
        .iter()
        .map(|r| (r.rule, r.variant))
        .collect()
}

/// Every report the PR rules make of one probe's facts.
pub(super) fn reports(contract: &str, role: Role, facts: Facts) -> Vec<crate::emit::Report> {
    let mut ws = Workspace::default();
    let src = SourceFile::new("c.yaml", "c.yaml", contract);
    let mut sink = Sink::default();
    let contracts = crate::contracts::load::load_file(0, &src, &mut sink).unwrap();
    ws.add_file(src, Some(crate::source::FileClass::Yaml));
    ws.contracts.extend(contracts);
    let mut settings = Settings::defaults(".".into());
    settings.probe = Some(ProbeSettings {
        targets: Vec::new(),
        only_probe_rules: true,
        target_envs: Default::default(),
        timeout: std::time::Duration::from_secs(1),
    });
    let analyses = Analyses::with_probe(Observations {
        probes: vec![Probe {
            contract: 0,
            role,
            name: "x".into(),
            shown: "postgres://db".into(),
            pointer: "/metadata/name".into(),
            result: Ok(facts),
        }],
    });
    let ctx = RuleCtx {
        ws: &ws,
        settings: &settings,
        analyses: &analyses,
    };
    let mut out = Sink::default();
    for e in super::entries() {
        if let crate::registry::Check::Workspace(check) = e.check {
            check(&ctx, &mut out);
        }
    }
    out.reports
}

pub(super) const HEAD: &str =
    "apiVersion: platcheck/v1\nmetadata:\n  name: x\n  owner: t\n  lifecycle: experimental\n";

#[test]
fn a_lagging_and_a_broken_replica() {
    let contract = format!(
        "{HEAD}kind: Cluster\nspec:\n  read_replicas:\n    count: 2\n  capacity:\n    dimensions:\n      replica_lag: {{ limit: 5s }}\n"
    );
    let replica = |name: &str, state: &str, lag| Replica {
        name: name.into(),
        state: state.into(),
        sync_state: "async".into(),
        replay_lag_ms: lag,
    };
    let facts = DbFacts {
        product: "postgresql",
        replicas: Some(vec![
            replica("r1", "streaming", Some(12_000)),
            replica("r2", "catchup", None),
        ]),
        ..DbFacts::default()
    };
    assert_eq!(
        judge(&contract, Role::Database, Facts::Db(facts)),
        [
            (RuleId::PR012, None),
            (RuleId::PR012, Some("state")),
            (RuleId::PR012, Some("lag")),
        ]
    );
}

#[test]
fn async_declared_while_commits_wait_and_mysql_without_gtids() {
    let contract = format!("{HEAD}kind: Cluster\nspec:\n  ha:\n    replication: async\n");
    let facts = DbFacts {
        product: "mysql",
        sync_replication: true,
        binlog: Some(Binlog {
            format: "ROW".into(),
            gtid: false,
            gtid_detail: "gtid_mode = OFF".into(),
        }),
        ..DbFacts::default()
    };
    assert_eq!(
        judge(&contract, Role::Database, Facts::Db(facts)),
        [
            (RuleId::PR011, Some("async")),
            (RuleId::PR017, Some("gtid"))
        ]
    );
}

#[test]
fn a_redis_replica_and_a_persistent_redis_without_replicas() {
    let contract = |persistence: bool| {
        format!(
            "{HEAD}kind: EventBoundary\nspec:\n  consumers:\n    - group: g\n      idempotency:\n        store: redis\n        redis:\n          maxmemory_policy: noeviction\n          persistence: {persistence}\n"
        )
    };
    let redis = |role: &str, appendonly: bool| RedisFacts {
        maxmemory_policy: "noeviction".into(),
        appendonly,
        role: role.into(),
        ..RedisFacts::default()
    };
    assert_eq!(
        judge(
            &contract(false),
            Role::Dedup,
            Facts::Redis(redis("slave", false))
        ),
        [(RuleId::PR021, Some("role"))]
    );
    assert_eq!(
        judge(
            &contract(true),
            Role::Dedup,
            Facts::Redis(redis("master", true))
        ),
        [(RuleId::PR021, Some("replicas"))]
    );
}
