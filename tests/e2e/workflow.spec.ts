import { expect, test, type Locator, type Page } from '@playwright/test';
import { asUser, rowAction } from './helpers';

/**
 * 审批流程 in the browser (issue 28): an administrator draws a three-step model (a condition on the form,
 * a countersign) in the modeler and deploys it; a teacher applies; the leader rejects once, the teacher
 * resubmits, the approvers pass it from 我的待办; 流程历史 shows the diagram with the path taken.
 */
const rows = (page: Page) => page.locator('.ant-table-tbody tr.ant-table-row');
const modal = (page: Page) => page.locator('.ant-modal:visible');
const ok = (scope: Locator) => scope.getByRole('button', { name: /确\s*定/ }).click();
const KEY = `e2e_${Date.now() % 1000000}`;
const NAME = `报销审批${KEY.slice(4)}`;

async function pick(page: Page, select: Locator, option: string) {
  await select.click();
  await page.locator('.ant-select-dropdown:visible').getByText(option, { exact: true }).click();
}

async function actOnTodo(page: Page, action: string, fill?: (dialog: Locator) => Promise<void>) {
  await page.goto('/workflow/todo');
  const row = rows(page).filter({ hasText: NAME }).first();
  await expect(row).toBeVisible({ timeout: 20_000 });
  await rowAction(page, row, action);
  const dialog = modal(page);
  await expect(dialog).toBeVisible();
  await fill?.(dialog);
  await ok(dialog);
  await expect(dialog).toBeHidden({ timeout: 20_000 });
  await expect(rows(page).filter({ hasText: NAME })).toHaveCount(0, { timeout: 20_000 });
}

test('审批流程: draw and deploy a model, apply, reject once, resubmit, pass, see the path', async ({ browser }) => {
  test.setTimeout(240_000);
  await asUser(browser, 'admin', async (page) => {
    await page.goto('/workflow/model');
    await page.getByRole('button', { name: /新建模型/ }).click();
    const form = modal(page);
    await form.locator('.ant-formily-item').filter({ hasText: '模型名称' }).locator('input').fill(NAME);
    await form.locator('.ant-formily-item').filter({ hasText: '模型标识' }).locator('input').fill(KEY);
    await ok(form);
    await expect(form).toBeHidden({ timeout: 20_000 });
    const model = rows(page).filter({ hasText: NAME });
    await expect(model).toBeVisible({ timeout: 20_000 });
    await rowAction(page, model, '设计');
    const modeler = page.getByTestId('wf-modeler');
    await expect(modeler.locator('.djs-container')).toBeVisible({ timeout: 30_000 });
    await expect(modeler.locator('.bjs-powered-by')).toBeVisible(); // the bpmn.io watermark stays
    // Shapes are placed through bpmn-js's own API (drag and drop from the palette is impractical here).
    const ids = await page.evaluate(() => {
      const m = (window as any).__wfModeler;
      const modeling = m.get('modeling');
      const factory = m.get('elementFactory');
      const registry = m.get('elementRegistry');
      const root = m.get('canvas').getRootElement();
      const mk = (type: string, x: number, y: number) => modeling.createShape(factory.createShape({ type }), { x, y }, root);
      const start = registry.get('start');
      const lead = mk('bpmn:UserTask', 260, 138);
      modeling.connect(start, lead);
      const gw = mk('bpmn:ExclusiveGateway', 410, 138);
      modeling.connect(lead, gw);
      const sec = mk('bpmn:UserTask', 540, 280);
      const big = modeling.connect(gw, sec);
      const sign = mk('bpmn:UserTask', 700, 138);
      const small = modeling.connect(gw, sign);
      modeling.connect(sec, sign);
      const end = mk('bpmn:EndEvent', 860, 138);
      modeling.connect(sign, end);
      modeling.updateProperties(gw, { default: small.businessObject });
      return { lead: lead.id, sec: sec.id, sign: sign.id, big: big.id };
    });
    const select = (id: string) => page.evaluate((x) => {
      const m = (window as any).__wfModeler;
      m.get('selection').select(m.get('elementRegistry').get(x));
    }, id);
    // Their properties through the panel.
    await select(ids.lead);
    await page.getByTestId('wf-prop-name').fill('领导审批');
    await pick(page, page.getByTestId('wf-prop-assignee'), '申请人所在部门领导');
    await select(ids.sec);
    await page.getByTestId('wf-prop-name').fill('秘书审核');
    await pick(page, page.getByTestId('wf-prop-assignee'), '申请人所在部门秘书');
    await select(ids.big);
    await page.getByTestId('wf-prop-condition').fill('amount > 1000');
    await select(ids.sign);
    await page.getByTestId('wf-prop-name').fill('会签');
    await pick(page, page.getByTestId('wf-prop-assignee'), '指定用户');
    await page.getByTestId('wf-prop-assignee-arg').fill('supervisor,deptadmin');
    await pick(page, page.getByTestId('wf-prop-countersign'), '全部同意');
    await page.getByTestId('wf-deploy').click();
    await expect(page.getByText('部署成功，版本 V1')).toBeVisible({ timeout: 20_000 });
  });

  await asUser(browser, 'teacher', async (page) => {
    await page.goto('/workflow/apply');
    const process = rows(page).filter({ hasText: NAME });
    await expect(process).toBeVisible({ timeout: 20_000 });
    await rowAction(page, process, '发起');
    const dialog = modal(page);
    await dialog.locator('.ant-formily-item').filter({ hasText: '申请标题' }).locator('input').fill(`${NAME} 设备采购`);
    await dialog.locator('.ant-formily-item').filter({ hasText: '金额' }).locator('input').fill('5000');
    await dialog.locator('.ant-formily-item').filter({ hasText: '申请事由' }).locator('textarea').fill('实验室采购示波器');
    await dialog.getByRole('button', { name: '提交申请' }).click();
    await expect(page.getByText('申请已提交')).toBeVisible({ timeout: 20_000 });
  });

  await asUser(browser, 'leader', (page) => actOnTodo(page, '驳回', (d) => d.locator('textarea').first().fill('请附报价单')));
  await asUser(browser, 'teacher', (page) => actOnTodo(page, '重新提交', async (d) => {
    // the start form comes filled with the application (a form loaded from the server), then 说明
    await expect(d.locator('.ant-formily-item').filter({ hasText: '申请标题' }).locator('input')).toHaveValue(`${NAME} 设备采购`, { timeout: 20_000 });
    await d.locator('.ant-formily-item').filter({ hasText: '说明' }).locator('textarea').fill('已附报价单');
  }));
  for (const user of ['leader', 'secretary', 'supervisor', 'deptadmin']) await asUser(browser, user, (page) => actOnTodo(page, '同意'));

  await asUser(browser, 'teacher', async (page) => {
    await page.goto('/workflow/history');
    const row = rows(page).filter({ hasText: NAME }).first();
    await expect(row).toContainText('已通过', { timeout: 20_000 });
    await rowAction(page, row, '详情');
    await expect(page.getByTestId('wf-diagram').locator('.djs-container')).toBeVisible({ timeout: 30_000 });
    await expect(page.locator('.wf-done').first()).toBeAttached({ timeout: 20_000 });
    expect(await page.locator('.djs-element.wf-done').count()).toBeGreaterThan(8);
    await expect(page.getByTestId('wf-steps')).toContainText('退回申请人');
    await expect(page.getByTestId('wf-steps')).toContainText('请附报价单');
    await expect(page.getByTestId('wf-steps')).toContainText('张建国');
    await page.screenshot({ path: 'test-results/shots/workflow/history-detail-1440.png' });
  });
});
