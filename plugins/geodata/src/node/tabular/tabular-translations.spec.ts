import en from './i18n/en.json' with { type: 'json' };
import de from './i18n/de.json' with { type: 'json' };
import { describeReasons } from '../failure-test-reasons';
import { failure } from './tabular-params';

describeReasons('geodata-tabular', failure, en, de);
